#include "replay/replay_session.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "core/errors.hpp"
#include "core/output_file.hpp"
#include "core/text_format.hpp"
#include "host/host_facts.hpp"
#include "replay/replay_record.hpp"
#include "replay/replay_table.hpp"
#include "replay/replay_verdict.hpp"

namespace commtune {
namespace {

std::string default_replay_path(BackendKind backend) {
  std::string stamp = utc_timestamp();
  stamp.erase(std::remove(stamp.begin(), stamp.end(), ':'), stamp.end());
  return "results/commtune-replay-" + std::string(name_of(backend)) + "-" + stamp + ".json";
}

// Rank 0 checks the path before anything is replayed; every rank throws the same InputError.
void check_path(ControlPlane& control, const std::string& path, const ReplayJob& job) {
  std::optional<std::string> failure;
  if (control.rank() == 0) {
    try {
      check_output_path(path, OutputPolicy{.force = false, .inputs = {job.workload_path}});
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  if (const auto agreed = control.agree_on_failure(failure)) throw InputError(*agreed);
}

void say_plan(const ReplayJob& job, const Plan& plan, const ReplayReport& report) {
  std::string settings;
  for (const Setting& s : plan.settings) settings += (settings.empty() ? "" : ", ") + s.name;
  std::cerr << ("commtune: " + report.banner + "\n");
  std::cerr << ("commtune: replaying " + std::to_string(job.workload.collectives.size()) +
                " call(s) a step under " + settings + ": " + std::to_string(job.options.rounds) +
                " interleaved rounds of " + std::to_string(job.options.steps) + " steps each (" +
                std::to_string(job.options.warmup) + " warm-up steps first)\n");
  for (const std::string& note : job.notes) std::cerr << ("commtune: note: " + note + "\n");
  std::cerr << std::flush;
}

void say_round(std::size_t round, const ReplayMeasurement& m, const ReplayOptions& options) {
  std::string line =
      "commtune: round " + std::to_string(round + 1) + "/" + std::to_string(options.rounds) + ":";
  for (const SettingReplay& s : m.settings)
    line += " " + s.setting.name + " " +
            (s.round_medians.size() > round ? printf_string("%.3f ms", s.round_medians[round] * 1e3)
                                            : std::string("failed"));
  std::cerr << (line + "\n") << std::flush;
}

ReplayRecord record_of(const ReplayJob& job, const Plan& plan, const Backend& backend,
                       const ReplayReport& report, ReplayMeasurement measured) {
  return ReplayRecord{.backend = backend.kind(),
                      .nranks = plan.nranks,
                      .workload_file = job.workload_path,
                      .workload = job.workload,
                      .options = job.options,
                      .contend = plan.options.contend,
                      .rounds_run = measured.rounds_run,
                      .complete = measured.complete,
                      .settings = std::move(measured.settings),
                      .provenance = report.provenance};
}

void write_record(const ReplayRecord& record, const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  write_output_file(path, to_json(record).dump(1) + "\n", OutputPolicy{});
  std::cout << replay_table(record) << std::flush;
  std::cerr << ("commtune: replay results written to " + path + "\n") << std::flush;
}

bool default_replayed(const ReplayRecord& record) {
  return std::any_of(record.settings.begin(), record.settings.end(), [](const SettingReplay& s) {
    return s.setting.is_default() && !s.step_seconds.empty();
  });
}

// Every call's element type is one the backend can run (the host backend has no bfloat16 or half):
// one line naming the workload's entry otherwise, before anything runs.
void check_types(const ReplayJob& job, const Plan& plan, const Backend& backend) {
  for (std::size_t i = 0; i < job.workload.collectives.size(); ++i) {
    SweepOptions options = plan.options;
    options.dtype = job.workload.collectives[i].datatype;
    try {
      backend.validate(Setting{kDefaultSettingName, "", {}, {}}, options);
    } catch (const InputError& e) {
      throw InputError(job.workload_path + ": collectives[" + std::to_string(i) + "]: " + e.what());
    }
  }
}

}  // namespace

int run_replay_session(const ReplayJob& job, const Plan& plan, Backend& backend, ControlPlane& control,
                       const ReplayReport& report) {
  check_job_fits(job.workload, job.workload_path, plan.nranks, plan.groups);
  check_types(job, plan, backend);
  const std::string path = report.out_path.empty() ? default_replay_path(backend.kind()) : report.out_path;
  check_path(control, path, job);
  if (control.rank() == 0) say_plan(job, plan, report);
  const std::vector<StepCall> calls = step_calls(job.workload);
  const bool rank0 = control.rank() == 0;
  const ReplayRun run{.settings = plan.settings,
                      .options = plan.options,
                      .calls = calls,
                      .replay = job.options,
                      .backend = backend,
                      .control = control,
                      .interrupted = report.interrupted,
                      .after_round = [&](std::size_t round, const ReplayMeasurement& m) {
                        if (rank0) say_round(round, m, job.options);
                      }};
  const ReplayRecord record = record_of(job, plan, backend, report, replay_rounds(run));
  if (rank0) write_record(record, path);
  if (!record.complete) return 130;
  return default_replayed(record) ? 0 : 1;
}

}  // namespace commtune
