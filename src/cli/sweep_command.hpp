#pragma once
// `commtune sweep`: options as nccl-tests users know them (-b -e -f -i -n -w -d -o -r -c, and the
// rest of nccl-tests' flags through cli/nccl_tests_habits), a settings matrix from --config, backend
// selection, and the run itself.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "plan/sweep_options.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "cli/nccl_tests_habits.hpp"
#include "launch/wiring.hpp"

namespace commtune {

struct SweepCommandOptions {
  std::string config_path;
  std::string out_path;
  std::string backend;
  std::string min_bytes, max_bytes, step_bytes;
  double factor = 0;
  std::string iterations, warmup, min_samples, repeat;  // checked against their ranges, never wrapped
  std::string collectives, dtype, op, placement, groups;
  int root = 0;
  int check = 1;
  double noise_target = 0, min_time = 0, max_time = 0, margin = 0;
  std::vector<std::string> settings;
  bool exhaustive = false;      // --exhaustive: no racing
  std::string budget;           // --budget DURATION
  double contend = 0;           // --contend F
  std::string resume_path;      // --resume RESULTS.json
  std::string workload;         // --workload W.json: the job's own sizes instead of a range
  NcclRunOptions nccl;          // --ranks --emulate-nodes --init-timeout --case-timeout --graph
  bool no_report = false;       // --no-report: no RESULTS.html at the end
  NcclTestsHabits nccl_tests;   // nccl-tests' other flags (-g -t -a -z ...), judged once the backend is known
  CLI::App* command = nullptr;  // to ask which flags were given
};

void add_sweep_command(CLI::App& app, SweepCommandOptions& options);

// A flag's whole decimal number in [low, high] (the text as typed): "-1" or "4294967296" never wrap
// into a huge count. Throws InputError naming the flag.
std::size_t count_flag(const char* flag, const std::string& text, std::size_t low, std::size_t high);

// The config file's options and settings with the given flags applied on top.
SweepConfig resolve_sweep_config(const SweepCommandOptions& options, const SplitEnvironment& split = {});

int run_sweep_command(const SweepCommandOptions& options, int argc, char** argv, const Wiring& wiring);

}  // namespace commtune
