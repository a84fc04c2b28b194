#pragma once
// `commtune tune RESULTS.json [MORE.json ...]`: the tuner's verdict on a results file (printed),
// and the recommendation file that `commtune export` reads (--out). Several files are launches of
// the same sweep (results/launch_merge.hpp): a winner must then beat the default in every run of
// every launch, not only on the pooled samples.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/tune_flags.hpp"

namespace commtune {

struct TuneCommandOptions {
  std::vector<std::string> results_paths;
  std::string out_path;           // recommendation JSON; empty: none
  bool force = false;             // replace --out if it exists
  bool allow_incomplete = false;  // tune an interrupted sweep's finished cases (said in every output)
  TuneFlags flags;
};

void add_tune_command(CLI::App& app, TuneCommandOptions& options);
int run_tune_command(const TuneCommandOptions& options);

}  // namespace commtune
