#pragma once
// `commtune compare BASELINE.json CURRENT.json`: provenance differences, then a verdict per
// case. Exit 1 when any case is SLOWER beyond the threshold, 0 when none, 2 on bad input.
#include <string>

#include <CLI/CLI.hpp>

namespace commtune {

struct CompareCommandOptions {
  std::string baseline_path, current_path;
  double threshold = 0.05;
  std::string format = "markdown";
  std::string out_path;
  bool force = false;  // replace --out if it exists
  bool allow_incomplete = false;  // either side may be an interrupted sweep (the report says so)
};

void add_compare_command(CLI::App& app, CompareCommandOptions& options);
int run_compare_command(const CompareCommandOptions& options);

}  // namespace commtune
