#pragma once
// The subcommands other than `sweep` (cli/sweep_command.hpp): each one's options, the function
// that adds it to the command line and the one that runs it. Each is defined in its own
// cli/<name>_command.cpp.
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "backend/nccl/worker/worker_engine.hpp"
#include "cli/tune_flags.hpp"
#include "launch/wiring.hpp"

namespace commtune {

// `commtune info`: which backends this build has, the NCCL version it runs with, visible GPUs.
void add_info_command(CLI::App& app);
int run_info_command(const Wiring& wiring);

// `commtune tune RESULTS.json [MORE.json ...]`: the tuner's verdict on a results file (printed),
// and the recommendation file that `commtune export` reads (--out). Several files are launches of
// the same sweep (results/launch_merge.hpp): a winner must then beat the default in every run of
// every launch, not only on the pooled samples.
struct TuneCommandOptions {
  std::vector<std::string> results_paths;
  std::string out_path;           // recommendation JSON; empty: none
  bool force = false;             // replace --out if it exists
  bool allow_incomplete = false;  // tune an interrupted sweep's finished cases (said in every output)
  TuneFlags flags;
};

void add_tune_command(CLI::App& app, TuneCommandOptions& options);
int run_tune_command(const TuneCommandOptions& options);

// `commtune export INPUT`: writes a recommendation (or the tuner's verdict on a results file) as
// shell, conf, docker env-file, JSON, NCCL tuner CSV or Open MPI rules; `--format all` writes
// every format that applies to the backend into --out-dir.
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

// `commtune compare BASELINE.json CURRENT.json`, or several files a side:
// `commtune compare --baseline B1.json --baseline B2.json --current C.json`: provenance
// differences, then a verdict per case judged on the spread between runs (docs/compare.md), and
// one summary line (also on stderr). Each file: commtune results (a --repeat sweep counts all its
// runs) or nccl-tests' JSON (-J). Exit 1 when any case is SLOWER, 0 when none, 2 on bad input.
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

// `commtune report FILE... --out report.html`: one self-contained HTML page with the plots of any
// mix of results files, tune recommendations, compare reports (JSON) and doctor reports (JSON),
// each file's kind told from its contents. Every input is read and validated before the output
// is opened; the output follows core/output_file's rules (never over an existing file unless
// --force, never through a symbolic link, never over an input). Like tune, export and compare, an
// interrupted sweep's results (or a recommendation tuned on one) need --allow-incomplete; the page
// then says so. Exit 0, or 2 on bad input.
struct ReportCommandOptions {
  std::vector<std::string> inputs;
  std::string out_path;
  bool force = false;
  bool allow_incomplete = false;  // results of an interrupted sweep, or a recommendation tuned on one
};

void add_report_command(CLI::App& app, ReportCommandOptions& options);
int run_report_command(const ReportCommandOptions& options, int argc, char** argv);

// `commtune doctor [--quick] [--json FILE] [--backend auto|mpi|nccl]`: is every link as fast as
// it should be, is a node or a cable slow, is a fast path switched off? Exit 0 healthy, 1 needs
// attention, 2 bad input.
struct DoctorCommandOptions {
  bool quick = false;
  std::string json_path;
  std::string system_root = "/";
  std::string backend = "auto";
  NcclRunOptions nccl;          // --ranks --emulate-nodes --init-timeout --case-timeout
  CLI::App* command = nullptr;  // to ask which flags were given
};

void add_doctor_command(CLI::App& app, DoctorCommandOptions& options);
int run_doctor_command(const DoctorCommandOptions& options, int argc, char** argv, const Wiring& wiring);

// `commtune workload --preset NAME [--params ...] | --nccl-log FILE... | --torch-trace FILE
// [--steps N] [--out W.json [--force]]`: one training step's collectives as a workload file
// (docs/workload.md), from a framework's defaults, a real job's NCCL log (one file or one per
// process) or its PyTorch profiler trace, with a summary per group; without --out the
// JSON goes to stdout and the summary to stderr. `--check W.json` reads a workload file, validates it
// and prints its summary. Exit 0, or 2 on bad input (nothing written).
struct WorkloadCommandOptions {
  std::string preset;                         // --preset
  std::map<std::string, std::string> values;  // --params, --layers, ... as typed (presets' value flags)
  bool sequence_parallel = false;             // --sequence-parallel (megatron-tp)
  std::string check_path;                     // --check FILE
  std::vector<std::string> nccl_logs;         // --nccl-log FILE...: NCCL_DEBUG=INFO COLL logs
  std::string torch_trace;                    // --torch-trace FILE: a PyTorch profiler trace
  std::uint64_t steps = 0;                    // --steps N: steps the log or trace holds (0: found)
  std::string out_path;
  bool force = false;           // replace --out if it exists
  CLI::App* command = nullptr;  // to ask which flags were given
};

void add_workload_command(CLI::App& app, WorkloadCommandOptions& options);
int run_workload_command(const WorkloadCommandOptions& options);

// `commtune replay W.json [--config C.json | --recommendation REC.json]`: one training step of the
// workload, its calls in order on their groups (every group at once), step after step under the
// default and each setting, in interleaved rounds; per setting the step's communication time with
// its interval, the change against the default, each call's share and, with a price, the money
// (docs/replay.md). Results JSON for `report` and `compare`. Exit 0, 1 (the default failed), 2 bad
// input, 130 interrupted.
struct ReplayCommandOptions {
  std::string workload_path;
  std::string config_path;          // --config: settings to replay beside the default
  std::string recommendation_path;  // --recommendation: its job-wide choices as one setting
  std::vector<std::string> settings;
  std::string backend;
  std::string rounds, steps, warmup;  // as typed: checked against their ranges
  double margin = 0;
  double contend = 0;
  double price = 0;  // --price-per-gpu-hour
  std::string currency = "USD";
  std::string steps_per_run;  // as typed
  std::string out_path;
  NcclRunOptions nccl;          // --ranks --emulate-nodes --init-timeout --case-timeout
  CLI::App* command = nullptr;  // to ask which flags were given
};

void add_replay_command(CLI::App& app, ReplayCommandOptions& options);
int run_replay_command(const ReplayCommandOptions& options, int argc, char** argv, const Wiring& wiring);

// `commtune worker` (hidden): the worker process a supervisor starts for one setting. Not for
// users: it expects the supervisor's socket at fd 3.
struct WorkerCommandOptions {
  int rank = 0;
  int nranks = 1;
  int device = 0;
  long parent = 0;  // the supervisor's pid: the worker exits when it is gone
};

void add_worker_command(CLI::App& app, WorkerCommandOptions& options);
int run_worker_command(const WorkerCommandOptions& options, const EngineFactory& make_engine);

}  // namespace commtune
