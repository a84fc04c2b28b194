#pragma once
// The tuner's flags, shared by `tune`, `export` and `sweep`'s end-of-sweep tuning: --margin,
// --objective-sizes MIN:MAX, --weight COLLECTIVE=W (repeatable).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "results/results_document.hpp"
#include "tune/tune_options.hpp"

namespace commtune {

struct TuneFlags {
  std::optional<double> margin;  // unset: the margin the sweep recorded, else the default
  std::string objective_sizes;
  std::vector<std::string> weights;
  std::string workload;  // --workload W.json: judge job-wide choices on its step
};

void add_tune_flags(CLI::App& command, TuneFlags& flags);

// --allow-incomplete (tune, export, compare): read an interrupted sweep ("complete": false).
void add_allow_incomplete_flag(CLI::App& command, bool& allow);

// Throws InputError on a bad range, weight or margin. Without --margin, the margin `results`
// recorded (the one its racing decided with), else the default.
TuneOptions resolve_tune_options(const TuneFlags& flags, const ResultsDocument& results);

}  // namespace commtune
