#include <unistd.h>  // environ

#include <algorithm>

#include "cli/commands.hpp"
#include "cli/sweep_command.hpp"
#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "host/host_facts.hpp"
#include "host/launcher.hpp"
#include "knobs/environment_knobs.hpp"
#include "launch/backend_choice.hpp"
#include "launch/launch.hpp"
#include "measure/contention.hpp"
#include "plan/config_loader.hpp"
#include "replay/replay_session.hpp"
#include "sweep/interrupt.hpp"
#include "tune/job_setting.hpp"
#include "tune/recommendation_json.hpp"

namespace commtune {
namespace {

bool given(const ReplayCommandOptions& o, const std::string& flag) { return o.command->count(flag) > 0; }

ReplayOptions replay_options(const ReplayCommandOptions& o) {
  ReplayOptions r;
  if (given(o, "--rounds")) r.rounds = count_flag("--rounds", o.rounds, 1, kMaxReplayRounds);
  if (given(o, "--steps")) r.steps = count_flag("--steps", o.steps, 1, kMaxReplaySteps);
  if (given(o, "--warmup")) r.warmup = count_flag("--warmup", o.warmup, 0, kMaxReplaySteps);
  if (given(o, "--margin")) r.rule = decision_rule(o.margin, "--margin");
  const bool priced = given(o, "--price-per-gpu-hour");
  if (!priced && (given(o, "--currency") || given(o, "--steps-per-run")))
    throw InputError("--currency and --steps-per-run go with --price-per-gpu-hour P");
  if (!priced) return r;
  Price p{.per_gpu_hour = o.price, .currency = o.currency, .steps_per_run = 0};
  if (given(o, "--steps-per-run"))
    p.steps_per_run = count_flag("--steps-per-run", o.steps_per_run, 1, 1000000000000ULL);
  check_price(p);
  r.price = p;
  return r;
}

// The sweep options the replay's settings are opened with: the workload's groups and collectives
// (the planner checks them against the job), --contend; one size, since no case is measured.
SweepOptions replay_sweep_options(const ReplayCommandOptions& o, const Workload& w) {
  SweepOptions s;
  if (given(o, "--backend")) s.backend = parse_backend_or_auto(o.backend, "--backend");
  s.collectives.clear();
  for (const WorkloadCollective& c : w.collectives)
    if (std::find(s.collectives.begin(), s.collectives.end(), c.collective) == s.collectives.end())
      s.collectives.push_back(c.collective);
  s.dtype = DataType::Float32;  // every call's own type is checked by the replay (replay_session)
  s.placements = {Placement::OutOfPlace};
  s.groups = step_groups(w);
  s.check = false;
  s.sizes.min_bytes = s.sizes.max_bytes = 1 << 20;
  if (given(o, "--contend")) s.contend = parse_contention(o.contend, "--contend");
  validate_sweep_options(s);
  return s;
}

// The default, the --config's settings (narrowed by --setting) and the recommendation's choices.
std::vector<Setting> replay_settings(const ReplayCommandOptions& o, std::vector<std::string>& notes,
                                     std::optional<BackendKind>& recommended_for) {
  std::vector<Setting> configured;
  if (!o.config_path.empty())
    configured = load_config_file(o.config_path).settings;
  else if (!o.settings.empty())
    throw InputError("--setting picks settings of --config C.json");
  std::vector<std::string> only;
  for (const std::string& entry : o.settings)
    for (std::size_t start = 0; start <= entry.size();) {
      const std::size_t comma = std::min(entry.find(',', start), entry.size());
      if (comma > start) only.push_back(entry.substr(start, comma - start));
      start = comma + 1;
    }
  std::vector<Setting> settings = select_settings(configured, only);
  if (o.recommendation_path.empty()) return settings;
  const Recommendation rec = recommendation_from_json(
      read_json_file(o.recommendation_path, "recommendation file"), o.recommendation_path);
  recommended_for = rec.backend;
  Setting chosen = job_wide_setting(rec, notes);
  if (chosen.is_default()) {
    notes.push_back(o.recommendation_path + " keeps the default everywhere: nothing to replay beside it");
    return settings;
  }
  for (const Setting& s : settings)
    if (s.name == chosen.name)
      throw InputError(o.config_path + ": a setting is named '" + chosen.name +
                       "', as --recommendation's is");
  settings.push_back(chosen);
  return settings;
}

void check_flags(const ReplayCommandOptions& o, const BackendChoice& choice,
                 std::optional<BackendKind> recommended_for) {
  if (recommended_for && *recommended_for != choice.kind)
    throw InputError("--recommendation: " + o.recommendation_path + " was tuned on the " +
                     std::string(name_of(*recommended_for)) + " backend; this replay runs on " +
                     choice.reason);
  if (choice.kind == BackendKind::Nccl) return;
  for (const char* flag : {"--ranks", "--emulate-nodes", "--init-timeout", "--case-timeout"})
    if (given(o, flag))
      throw InputError(std::string(flag) + " is an NCCL backend option; this replay runs on " +
                       choice.reason);
}

void add_nccl_flags(CLI::App* cmd, ReplayCommandOptions& o) {
  cmd->add_option("--ranks", o.nccl.ranks, "NCCL without a launcher: workers to start (default: one per GPU)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--emulate-nodes", o.nccl.emulate_nodes,
                "NCCL: every rank its own NCCL_HOSTID (one-GPU nodes)");
  cmd->add_option("--init-timeout", o.nccl.init_timeout_s, "NCCL: seconds a communicator init may take");
  cmd->add_option("--case-timeout", o.nccl.case_timeout_s, "NCCL: seconds one replayed step may take");
}

}  // namespace

void add_replay_command(CLI::App& app, ReplayCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay a workload's training step (its collectives on their groups) under each setting");
  o.command = cmd;
  cmd->add_option("workload", o.workload_path, "Workload file (commtune workload --out W.json)")->required();
  cmd->add_option("--config", o.config_path, "Settings to replay beside the default (configs/NAME.json)");
  cmd->add_option("--setting", o.settings, "Replay only these settings of --config (repeat or comma list)");
  cmd->add_option("--recommendation", o.recommendation_path,
                  "A recommendation (commtune tune --out REC.json): its job-wide choices as one setting");
  cmd->add_option("--backend", o.backend, "auto (NCCL when GPUs are visible, else MPI), mpi or nccl");
  cmd->add_option("--rounds", o.rounds, "Interleaved rounds, 1 to 100 (default 5)");
  cmd->add_option("--steps", o.steps, "Timed steps per setting and round, 1 to 100000 (default 20)");
  cmd->add_option("--warmup", o.warmup, "Untimed steps before a setting's first round (default 3)");
  cmd->add_option("--margin", o.margin,
                  "Least change called faster or slower, a fraction in [0, 1) (default 0.02)");
  cmd->add_option("--contend", o.contend,
                  "Replay under a compute load on every rank, this fraction of the device");
  cmd->add_option("--price-per-gpu-hour", o.price,
                  "What a GPU hour costs: money per 1000 steps (GPUs = ranks)");
  cmd->add_option("--currency", o.currency, "Currency of the price, ISO 4217 (default USD)");
  cmd->add_option("--steps-per-run", o.steps_per_run, "Steps of a training run: money per run too");
  cmd->add_option("--out", o.out_path,
                  "Results JSON (default results/commtune-replay-BACKEND-TIME.json; never overwritten)");
  add_nccl_flags(cmd, o);
}

int run_replay_command(const ReplayCommandOptions& o, int argc, char** argv, const Wiring& wiring) {
  if (given(o, "--config") && o.config_path.empty()) throw InputError("--config needs a file name");
  if (given(o, "--out") && o.out_path.empty()) throw InputError("--out needs a file name");
  ReplayJob job{.workload = read_workload_file(o.workload_path),
                .workload_path = o.workload_path,
                .options = replay_options(o),
                .notes = {}};
  SweepConfig config;
  config.origin = o.config_path;
  config.name = "replay";
  config.description = "replay of " + o.workload_path;
  config.options = replay_sweep_options(o, job.workload);
  std::optional<BackendKind> recommended_for;
  config.settings = replay_settings(o, job.notes, recommended_for);
  const BackendChoice choice = choose_backend(config.options.backend, wiring);
  check_flags(o, choice, recommended_for);
  for (std::string& note :  // the default (and every setting without the knob) runs with its value
       knobs_the_environment_sets(choice.kind, config.settings, relevant_environment(environ)))
    job.notes.push_back(std::move(note));
  SweepLaunch launch{.config = config,
                     .choice = choice,
                     .out_path = o.out_path,
                     .argc = argc,
                     .argv = argv,
                     .nccl = o.nccl,
                     .wiring = wiring,
                     .launcher = detect_launcher()};
  launch.check_job = [&job](const PlanLimits& limits) {
    std::vector<GroupLayout> layouts;
    for (const GroupSpec& spec : step_groups(job.workload))
      layouts.push_back(layout_groups(spec, node_of_each_rank(limits)));
    check_job_fits(job.workload, job.workload_path, limits.nranks, layouts);
  };
  launch.session = [&job](const Plan& plan, Backend& backend, ControlPlane& control, const SweepReport& r) {
    InterruptWatch watch(r.stop_grace);
    return run_replay_session(job, plan, backend, control,
                              ReplayReport{.out_path = r.out_path,
                                           .provenance = r.provenance,
                                           .banner = r.banner,
                                           .interrupted = [&watch] { return watch.requested(); }});
  };
  return launch_sweep(launch);
}

}  // namespace commtune
