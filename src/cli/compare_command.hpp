#pragma once
// `commtune compare BASELINE.json CURRENT.json`, or several files a side:
// `commtune compare --baseline B1.json --baseline B2.json --current C.json`: provenance
// differences, then a verdict per case judged on the spread between runs (docs/compare.md), and
// one summary line (also on stderr). Each file: commtune results (a --repeat sweep counts all its
// runs) or nccl-tests' JSON (-J). Exit 1 when any case is SLOWER, 0 when none, 2 on bad input.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace commtune {

struct CompareCommandOptions {
  std::vector<std::string> positional;           // BASELINE CURRENT
  std::vector<std::string> baselines, currents;  // --baseline, --current (repeatable)
  double threshold = 0.05;
  double run_noise = -1;  // --run-noise; below 0: the default
  std::string format = "markdown";
  std::string out_path;
  bool force = false;             // replace --out if it exists
  bool allow_incomplete = false;  // any file may be an interrupted sweep (the report says so)
};

void add_compare_command(CLI::App& app, CompareCommandOptions& options);
int run_compare_command(const CompareCommandOptions& options);

}  // namespace commtune
