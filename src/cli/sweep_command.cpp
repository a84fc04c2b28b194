#include "cli/sweep_command.hpp"

#include <unistd.h>  // environ

#include <charconv>
#include <sstream>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "cli/sweep_workload.hpp"
#include "plan/config_loader.hpp"
#include "measure/contention.hpp"
#include "plan/duration.hpp"
#include "launch/backend_choice.hpp"
#include "host/host_facts.hpp"
#include "host/launcher.hpp"
#include "knobs/environment_knobs.hpp"
#include "launch/launch.hpp"

namespace commtune {
namespace {

bool given(const SweepCommandOptions& o, const std::string& flag) { return o.command->count(flag) > 0; }

WorkloadFlags workload_flags(const SweepCommandOptions& o) {
  return WorkloadFlags{.path = given(o, "--workload") ? o.workload : "",
                       .sizes_given = given(o, "-b") || given(o, "-e") || given(o, "-f") || given(o, "-i"),
                       .groups_given = given(o, "--groups"),
                       .collectives_given = given(o, "--collectives"),
                       .dtype_given = given(o, "-d")};
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

// Runs `parse`; its InputError gets the flag in front ("-e: bad size '1T': ...").
template <typename Parse>
auto for_flag(const char* flag, Parse&& parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(std::string(flag) + ": " + e.what());
  }
}

std::vector<Placement> parse_placements(const std::string& text) {
  if (text == "both") return {Placement::OutOfPlace, Placement::InPlace};
  if (text == "out" || text == "out-of-place") return {Placement::OutOfPlace};
  if (text == "in" || text == "in-place") return {Placement::InPlace};
  throw InputError("--placement must be both, in or out (got " + quote_text(text) + ")");
}

void apply_sizes(const SweepCommandOptions& o, SweepOptions& s) {
  if (given(o, "-f") && given(o, "-i"))
    throw InputError("-f and -i: give a step factor or an additive step, not both");
  if (given(o, "-b")) s.sizes.min_bytes = for_flag("-b", [&] { return parse_size(o.min_bytes); });
  if (given(o, "-e")) s.sizes.max_bytes = for_flag("-e", [&] { return parse_size(o.max_bytes); });
  if (given(o, "-f")) {
    s.sizes.factor = o.factor;
    s.sizes.step_bytes = 0;  // over a config's step: the flag wins
  }
  if (given(o, "-i")) {
    s.sizes.step_bytes = for_flag("-i", [&] { return parse_size(o.step_bytes); });
    s.sizes.factor = 1.0;  // nccl-tests: -i means an additive step
  }
}

void apply_sampling(const SweepCommandOptions& o, StoppingRule& rule) {
  if (given(o, "-n")) rule.fixed_iterations = count_flag("-n", o.iterations, 1, kMaxIterations);
  if (given(o, "-w")) rule.warmup_iterations = count_flag("-w", o.warmup, 0, kMaxWarmup);
  if (given(o, "--noise-target")) rule.target_relative_ci = o.noise_target;
  if (given(o, "--min-time")) rule.min_time_s = o.min_time;
  if (given(o, "--max-time")) rule.max_time_s = o.max_time;
  if (given(o, "--min-samples"))
    rule.min_samples = count_flag("--min-samples", o.min_samples, 1, kMaxIterations);
}

std::vector<Collective> parse_collectives(const std::string& text) {
  std::vector<Collective> out;
  for (const auto& name : split_list(text))
    out.push_back(for_flag("--collectives", [&] { return parse_collective(name); }));
  return out;
}

void apply_flags(const SweepCommandOptions& o, SweepOptions& s) {
  apply_sizes(o, s);
  apply_sampling(o, s.stopping);
  if (given(o, "--backend")) s.backend = parse_backend_or_auto(o.backend, "--backend");
  if (given(o, "--collectives")) s.collectives = parse_collectives(o.collectives);
  if (given(o, "-d")) s.dtype = for_flag("-d", [&] { return parse_data_type(nccl_tests_type(o.dtype)); });
  if (given(o, "-o")) s.op = for_flag("-o", [&] { return parse_reduce_op(nccl_tests_op(o.op)); });
  if (given(o, "-r")) s.root = o.root;
  if (given(o, "-c")) {
    if (o.check < 0)
      throw InputError("-c must be 0 (no data check) or a count above 0 (the check on), got " +
                       std::to_string(o.check));
    if (o.check > 1)  // nccl-tests' -c counts the iterations it checks
      s.notes.push_back("-c " + std::to_string(o.check) + " taken as -c 1: the data check is on");
    s.check = o.check != 0;
  }
  if (given(o, "--placement")) s.placements = parse_placements(o.placement);
  if (given(o, "--groups")) s.groups = parse_group_specs(o.groups, "--groups");
  if (given(o, "--repeat") && o.repeat == "0")  // nccl-tests' -N 0 runs until stopped
    throw InputError("--repeat (-N) 0: commtune runs its plan a set number of times, 1 to " +
                     std::to_string(kMaxRepeat));
  if (given(o, "--repeat")) s.repeat = count_flag("--repeat", o.repeat, 1, kMaxRepeat);
  if (given(o, "--margin")) s.decision = decision_rule(o.margin, "--margin");
  if (given(o, "--budget")) s.budget_s = for_flag("--budget", [&] { return parse_duration(o.budget); });
  if (given(o, "--contend")) s.contend = parse_contention(o.contend, "--contend");
  for (const auto& entry : o.settings) {
    if (split_list(entry).empty()) throw InputError("--setting needs a setting name");
    for (const auto& name : split_list(entry)) s.only_settings.push_back(name);
  }
}

void check_timeout(const SweepCommandOptions& o, const char* flag, double seconds) {
  if (given(o, flag) && !(seconds >= 1e-3 && seconds <= kMaxCaseSeconds))
    throw InputError(std::string(flag) + " must be a number of seconds from 0.001 to 3600");
}

// The NCCL backend's flags mean nothing to the MPI backend: refused, not ignored.
void check_backend_flags(const SweepCommandOptions& o, const BackendChoice& choice) {
  check_timeout(o, "--init-timeout", o.nccl.init_timeout_s);
  check_timeout(o, "--case-timeout", o.nccl.case_timeout_s);
  if (choice.kind == BackendKind::Nccl) return;
  for (const char* flag : {"--ranks", "--emulate-nodes", "--graph", "--init-timeout", "--case-timeout"})
    if (given(o, flag))  // every name of the option: -T is --case-timeout
      throw InputError(o.command->get_option(flag)->get_name(false, true) +
                       " is an NCCL backend option; this sweep runs on " + choice.reason);
}

// nccl-tests' flags: sizes and sampling (-b -e -f -i -n -w) and the adaptive stop.
void add_size_flags(CLI::App* cmd, SweepCommandOptions& o) {
  cmd->add_option("-b,--minbytes", o.min_bytes,
                  "Smallest size, 1 B to 64 GiB: 8, 1K, 4M, 1G (suffixes K, M, G: x1024)");
  cmd->add_option("-e,--maxbytes", o.max_bytes,
                  "Largest size, at most 64 GiB (at most 10000 sizes from -b to -e)");
  cmd->add_option("-f,--stepfactor", o.factor,
                  "Multiply the size by this factor at each step (above 1, at most 1024)");
  cmd->add_option("-i,--stepbytes", o.step_bytes, "Add this many bytes at each step (instead of -f)");
  cmd->add_option("-n,--iters", o.iterations,
                  "Exactly this many timed iterations, 1 to 1000000 (default: adaptive)");
  cmd->add_option("-w,--warmup_iters", o.warmup,
                  "Warm-up calls per case, 0 to 100000 (default 5; 1 on a re-run; 3 if long, round 0)");
  cmd->add_option("--noise-target", o.noise_target,
                  "Adaptive stop: median CI half-width / median, in (0, 1] (default 0.01)");
  cmd->add_option("--min-time", o.min_time,
                  "Adaptive stop: least sampled seconds per case, 0 to 3600 (default 0.02)");
  cmd->add_option("--max-time", o.max_time,
                  "Adaptive stop: most sampled seconds per case, up to 3600 (default 0.5)");
  cmd->add_option("--min-samples", o.min_samples,
                  "Adaptive stop: least samples per case, 1 to 1000000 (default 10)");
}

// What each case runs: collectives, type, op, root, check, placement.
void add_case_flags(CLI::App* cmd, SweepCommandOptions& o) {
  cmd->add_option("--collectives", o.collectives,
                  "Comma list, each once: allreduce,allgather,broadcast,reducescatter");
  cmd->add_option("-d,--datatype", o.dtype,
                  "Element type: float, double, int8, uint8, int32, uint32, int64, uint64, half, bfloat16");
  cmd->add_option("-o,--op", o.op, "Reduction: sum, prod, max, min");
  cmd->add_option("-r,--root", o.root, "Root rank of broadcast");
  cmd->add_option("-c,--check", o.check,
                  "Data check: 1 (default) counts wrong elements per case, 0 skips it");
  cmd->add_option("--placement", o.placement, "both (default), in or out: in-place and/or out-of-place");
  cmd->add_option("--groups", o.groups,
                  "Communicators each case runs on, all at once: comma list of world (default), intra-node "
                  "(one per node), inter-node (one per local rank), or nccl-tests' NCCL_TESTS_SPLIT "
                  "'OP VALUE' (color = rank AND|OR|MOD|DIV value; 'MOD 8': one GPU per node on 8-GPU nodes)");
}

// How the plan runs: repeats, racing, margin, budget, resume, settings.
void add_plan_flags(CLI::App* cmd, SweepCommandOptions& o) {
  cmd->add_option("--repeat,-N,--run_cycles", o.repeat,
                  "Run the whole plan N times, 1 to 100 (default 1), each in a rotated case order; each case "
                  "keeps every run's median (for compare)");
  cmd->add_flag("--exhaustive", o.exhaustive,
                "Measure every case to the full precision (default with more than the default setting: "
                "racing, docs/racing.md)");
  cmd->add_option("--margin", o.margin,
                  "Least time a winner must save, between the near ends of the median intervals, as a "
                  "fraction in [0, 1) (default 0.02): racing, the finalists' re-measure and the tuning");
  cmd->add_option(
      "--budget", o.budget,
      "Fit the sweep and its finalists' re-measure into this wall time (90s, 15m, 1h30m): racing harder, "
      "shorter cases, fewer sizes, as needed; the plan and its estimate are printed first");
  cmd->add_option("--contend", o.contend,
                  "Measure under a compute load on every rank, this fraction of the device in (0, 1]: a busy "
                  "memory-bound thread per rank (MPI), a kernel on that share of the GPU's SMs (NCCL)");
  cmd->add_option("--resume", o.resume_path,
                  "Continue the interrupted sweep of this results file (same plan and machine): its cases "
                  "are kept, the rest measured, all written to a new file");
  cmd->add_option("--setting", o.settings, "Run only these settings of the config (repeat or comma list)");
  cmd->add_option(
      "--workload", o.workload,
      "Measure a training step's own cases (commtune workload --out W.json): its sizes on its groups "
      "instead of -b/-e; the tuning at the end weighs each by its share of the step");
}

// The NCCL backend's own flags.
void add_nccl_flags(CLI::App* cmd, SweepCommandOptions& o) {
  cmd->add_option("--ranks", o.nccl.ranks,
                  "NCCL without a launcher: workers to start, 1 to 1024 (default: one per visible GPU)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag(
      "--emulate-nodes", o.nccl.emulate_nodes,
      "NCCL: every rank its own NCCL_HOSTID (one-GPU nodes over the network path; results labelled)");
  cmd->add_option("--init-timeout", o.nccl.init_timeout_s,
                  "NCCL: seconds a communicator init may take, up to 3600 (default 120)");
  cmd->add_option("--case-timeout,-T,--timeout", o.nccl.case_timeout_s,
                  "NCCL: seconds each step of a case may take, up to 3600 (default 60)");
  cmd->add_flag("--graph", o.nccl.graph,
                "NCCL: time each batch as one CUDA graph (one sample per batch: its mean)");
}

}  // namespace

void add_sweep_command(CLI::App& app, SweepCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("sweep", "Measure collectives over sizes under a matrix of settings");
  o.command = cmd;
  cmd->add_option("--config", o.config_path, "Settings matrix and sweep parameters (configs/NAME.json)");
  cmd->add_option("--backend", o.backend, "auto (NCCL when GPUs are visible, else MPI), mpi or nccl");
  add_size_flags(cmd, o);
  add_case_flags(cmd, o);
  add_plan_flags(cmd, o);
  add_nccl_flags(cmd, o);
  cmd->add_option("--out,-J,--output_file", o.out_path,
                  "Results JSON file (default results/commtune-BACKEND-TIME.json; never overwritten)");
  cmd->add_flag("--no-report", o.no_report,
                "Write no HTML report (RESULTS.html, beside the results file) at the end");
  add_nccl_tests_habits(cmd, o.nccl_tests);
  cmd->footer(nccl_tests_habits_footer());
}

// A whole decimal number in [low, high]: "-1" or "4294967296" never wrap into a huge count.
std::size_t count_flag(const char* flag, const std::string& text, std::size_t low, std::size_t high) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
    throw InputError(std::string(flag) + ": expected an integer from " + std::to_string(low) + " to " +
                     std::to_string(high) + ", got " + quote_text(text));
  return value;
}

SweepConfig resolve_sweep_config(const SweepCommandOptions& o, const SplitEnvironment& split) {
  SweepConfig config;
  if (!o.config_path.empty()) config = load_config_file(o.config_path);
  const bool groups_chosen = given(o, "--groups") || config.groups_given || given(o, "--workload");
  apply_flags(o, config.options);
  if (given(o, "--workload")) apply_workload(workload_flags(o), config.options);
  apply_split_environment(split, groups_chosen, config.options);
  // The config and the flags together: a problem names the file too, when there is one.
  in_config(config, [&] { validate_sweep_options(config.options); });
  config.settings = select_settings(config.settings, config.options.only_settings);
  in_config(config, [&] { check_settings_apply(config); });
  // Racing needs rivals; not with --repeat; nor on groups, whose figures rank 0 alone keeps.
  config.options.race.enabled = !o.exhaustive && config.options.repeat == 1 && config.settings.size() > 1 &&
                                world_only(config.options.groups);
  return config;
}

int run_sweep_command(const SweepCommandOptions& o, int argc, char** argv, const Wiring& wiring) {
  if (given(o, "--out") && o.out_path.empty()) throw InputError("--out needs a file name");
  if (given(o, "--resume") && o.resume_path.empty())
    throw InputError("--resume needs the results file of the interrupted sweep");
  if (given(o, "--resume") && given(o, "--repeat") && o.repeat != "1")
    throw InputError(
        "--resume with --repeat: a repeated sweep cannot be resumed (its cases pool every run); run it "
        "again");
  SweepConfig config = resolve_sweep_config(o, split_environment());
  const BackendChoice choice = choose_backend(config.options.backend, wiring);
  check_backend_flags(o, choice);
  const NcclTestsEffect habits =
      nccl_tests_effect(given_nccl_tests_habits(*o.command, o.nccl_tests), choice.kind);
  config.options.notes.insert(config.options.notes.end(), habits.notes.begin(), habits.notes.end());
  for (std::string& note :
       knobs_the_environment_sets(choice.kind, config.settings, relevant_environment(environ)))
    config.options.notes.push_back(std::move(note));
  NcclRunOptions nccl = o.nccl;
  nccl.graph = nccl.graph || habits.graph;
  check_workload_type(workload_flags(o), config.options, choice.kind == BackendKind::Mpi);
  return launch_sweep(SweepLaunch{.config = config,
                                  .choice = choice,
                                  .out_path = o.out_path,
                                  .argc = argc,
                                  .argv = argv,
                                  .nccl = nccl,
                                  .wiring = wiring,
                                  .launcher = detect_launcher(),
                                  .resume_path = o.resume_path,
                                  .html_report = !o.no_report});
}

}  // namespace commtune
