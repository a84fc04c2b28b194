#include "cli/sweep_command.hpp"

#include <sstream>

#include "core/errors.hpp"
#include "plan/config_loader.hpp"
#include "launch/backend_choice.hpp"
#include "launch/launch.hpp"

namespace commtune {
namespace {

bool given(const SweepCommandOptions& o, const std::string& flag) { return o.command->count(flag) > 0; }

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

std::vector<Placement> parse_placements(const std::string& text) {
  if (text == "both") return {Placement::OutOfPlace, Placement::InPlace};
  if (text == "out" || text == "out-of-place") return {Placement::OutOfPlace};
  if (text == "in" || text == "in-place") return {Placement::InPlace};
  throw InputError("--placement must be both, in or out (got '" + text + "')");
}

void apply_sizes(const SweepCommandOptions& o, SweepOptions& s) {
  if (given(o, "-b")) s.sizes.min_bytes = parse_size(o.min_bytes);
  if (given(o, "-e")) s.sizes.max_bytes = parse_size(o.max_bytes);
  if (given(o, "-f")) s.sizes.factor = o.factor;
  if (given(o, "-i")) {
    s.sizes.step_bytes = parse_size(o.step_bytes);
    if (!given(o, "-f")) s.sizes.factor = 1.0;  // nccl-tests: -i alone means an additive step
  }
}

void apply_sampling(const SweepCommandOptions& o, StoppingRule& rule) {
  if (given(o, "-n")) rule.fixed_iterations = o.iterations;
  if (given(o, "-w")) rule.warmup_iterations = o.warmup;
  if (given(o, "--noise-target")) rule.target_relative_ci = o.noise_target;
  if (given(o, "--min-time")) rule.min_time_s = o.min_time;
  if (given(o, "--max-time")) rule.max_time_s = o.max_time;
  if (given(o, "--min-samples")) rule.min_samples = o.min_samples;
}

void apply_flags(const SweepCommandOptions& o, SweepOptions& s) {
  apply_sizes(o, s);
  apply_sampling(o, s.stopping);
  if (given(o, "--backend")) s.backend = o.backend;
  if (given(o, "--collectives")) {
    s.collectives.clear();
    for (const auto& name : split_list(o.collectives)) s.collectives.push_back(parse_collective(name));
  }
  if (given(o, "-d")) s.dtype = parse_data_type(o.dtype);
  if (given(o, "-o")) s.op = parse_reduce_op(o.op);
  if (given(o, "-r")) s.root = o.root;
  if (given(o, "-c")) s.check = o.check != 0;
  if (given(o, "--placement")) s.placements = parse_placements(o.placement);
  for (const auto& entry : o.settings)
    for (const auto& name : split_list(entry)) s.only_settings.push_back(name);
}

}  // namespace

void add_sweep_command(CLI::App& app, SweepCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("sweep", "Measure collectives over sizes under a matrix of settings");
  o.command = cmd;
  cmd->add_option("--config", o.config_path, "Settings matrix and sweep parameters (configs/NAME.json)");
  cmd->add_option("--backend", o.backend, "auto (NCCL when GPUs are visible, else MPI), mpi or nccl");
  cmd->add_option("-b,--minbytes", o.min_bytes, "Smallest size, e.g. 8, 1K, 4M (binary suffixes)");
  cmd->add_option("-e,--maxbytes", o.max_bytes, "Largest size");
  cmd->add_option("-f,--stepfactor", o.factor, "Multiply the size by this factor at each step");
  cmd->add_option("-i,--stepbytes", o.step_bytes, "Add this many bytes at each step (instead of -f)");
  cmd->add_option("-n,--iters", o.iterations, "Exactly this many timed iterations (default: adaptive)");
  cmd->add_option("-w,--warmup_iters", o.warmup, "Warm-up iterations per case (default 5)");
  cmd->add_option("--noise-target", o.noise_target, "Adaptive stop: median CI half-width / median (default 0.01)");
  cmd->add_option("--min-time", o.min_time, "Adaptive stop: least sampled seconds per case (default 0.02)");
  cmd->add_option("--max-time", o.max_time, "Adaptive stop: most sampled seconds per case (default 0.5)");
  cmd->add_option("--min-samples", o.min_samples, "Adaptive stop: least samples per case (default 10)");
  cmd->add_option("--collectives", o.collectives, "Comma list: allreduce,allgather,broadcast,reducescatter");
  cmd->add_option("-d,--datatype", o.dtype, "Element type: float, double, int8, uint8, int32, uint32, int64, uint64, half, bfloat16");
  cmd->add_option("-o,--op", o.op, "Reduction: sum, prod, max, min");
  cmd->add_option("-r,--root", o.root, "Root rank of broadcast");
  cmd->add_option("-c,--check", o.check, "Data check: 1 (default) counts wrong elements per case, 0 skips it");
  cmd->add_option("--placement", o.placement, "both (default), in or out: in-place and/or out-of-place");
  cmd->add_option("--setting", o.settings, "Run only these settings of the config (repeat or comma list)");
  cmd->add_option("--ranks", o.nccl.ranks, "NCCL without a launcher: workers to start (default: one per visible GPU)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--emulate-nodes", o.nccl.emulate_nodes,
                "NCCL: every rank its own NCCL_HOSTID (one-GPU nodes over the network path; results labelled)");
  cmd->add_option("--init-timeout", o.nccl.init_timeout_s, "NCCL: seconds a communicator init may take (default 120)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--case-timeout", o.nccl.case_timeout_s, "NCCL: seconds each step of a case may take (default 60)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--graph", o.nccl.graph, "NCCL: time each batch as one CUDA graph (one sample per batch: its mean)");
  cmd->add_option("--out", o.out_path, "Results JSON path (default results/commtune-BACKEND-TIME.json; never overwritten)");
}

SweepConfig resolve_sweep_config(const SweepCommandOptions& o) {
  SweepConfig config;
  if (!o.config_path.empty()) config = load_config_file(o.config_path);
  apply_flags(o, config.options);
  config.settings = select_settings(config.settings, config.options.only_settings);
  return config;
}

int run_sweep_command(const SweepCommandOptions& o, int argc, char** argv, const Wiring& wiring) {
  const SweepConfig config = resolve_sweep_config(o);
  const BackendChoice choice = choose_backend(config.options.backend, wiring);
  return launch_sweep(SweepLaunch{config, choice, o.out_path, argc, argv, o.nccl, wiring});
}

}  // namespace commtune
