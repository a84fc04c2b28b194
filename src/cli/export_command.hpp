#pragma once
// `commtune export INPUT`: writes a recommendation (or the tuner's verdict on a results file) as
// shell, conf, docker env-file, JSON, NCCL tuner CSV or Open MPI rules; `--format all` writes
// every format that applies to the backend into --out-dir.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/tune_flags.hpp"

namespace commtune {

struct ExportCommandOptions {
  std::string input_path;
  std::string format = "shell";
  std::string out_path;           // one format; empty: stdout
  std::string out_dir;            // --format all
  bool force = false;             // replace existing output files
  bool nccl_algo_env = false;     // keep NCCL_ALGO / NCCL_PROTO in the env files (debugging variables)
  bool allow_incomplete = false;  // an interrupted sweep's results, or a recommendation tuned on them
  TuneFlags flags;
  CLI::App* command = nullptr;  // to ask which flags were given
};

void add_export_command(CLI::App& app, ExportCommandOptions& options);
int run_export_command(const ExportCommandOptions& options);

}  // namespace commtune
