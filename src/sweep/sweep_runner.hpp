#pragma once
// Runs a plan in its case order (each setting opened for its run of consecutive cases), every
// rank in step. A setting that cannot
// be applied or a case that fails is recorded with its reason (agreed by every rank) and the
// sweep goes on. Stops early, cleanly, when any rank is interrupted.
#include "writers/result_sink.hpp"
#include "sweep/sweep_run.hpp"

namespace commtune {

// `sink`: rank 0's writers; a no-op sink elsewhere.
RunSummary run_sweep(const SweepRun& run, ResultSink& sink);

}  // namespace commtune
