#pragma once
// Tuning at the end of a sweep: rank 0 picks the finalists from the sweep's cases, every rank
// re-measures them with the default in an interleaved round, and rank 0 prints the tuner's
// verdict and writes it next to the results file (RESULTS.tune.json, for `commtune export`).
// Sweeps with only the default setting skip it.
#include <string>

#include "writers/result_sink.hpp"
#include "results/results_document.hpp"
#include "sweep/sweep_run.hpp"

namespace commtune {

// Every rank calls it after the sweep, in step; `swept` and `results_path` matter on rank 0 only.
// Does nothing after an interrupted sweep. Returns the recommendation file's path on rank 0
// (empty where none was written).
std::string tune_after_sweep(const SweepRun& run, const ResultsDocument& swept,
                             const std::string& results_path, const RunSummary& summary);

}  // namespace commtune
