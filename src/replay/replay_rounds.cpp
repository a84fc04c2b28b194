#include "replay/replay_rounds.hpp"

#include <memory>

#include "core/errors.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

using Sessions = std::vector<std::unique_ptr<SettingSession>>;

// Opens every setting; one that fails on any rank is recorded failed on every rank.
Sessions open_all(const ReplayRun& run, ReplayMeasurement& out) {
  Sessions sessions(run.settings.size());
  for (std::size_t i = 0; i < run.settings.size(); ++i) {
    std::optional<std::string> local;
    try {
      sessions[i] = run.backend.open(run.settings[i], run.options);
    } catch (const Error& e) {
      local = e.what();
    }
    const std::optional<std::string> failure = run.control.agree_on_failure(local);
    if (failure) {
      sessions[i].reset();
      out.settings[i].failure = "setting not applied: " + *failure;
    }
  }
  return sessions;
}

void append(SettingReplay& into, const StepTimes& times) {
  into.step_seconds.insert(into.step_seconds.end(), times.step_seconds.begin(), times.step_seconds.end());
  if (into.call_seconds.size() < times.call_seconds.size())
    into.call_seconds.resize(times.call_seconds.size());
  for (std::size_t c = 0; c < times.call_seconds.size(); ++c)
    into.call_seconds[c].insert(into.call_seconds[c].end(), times.call_seconds[c].begin(),
                                times.call_seconds[c].end());
  into.round_medians.push_back(summarize(times.step_seconds).median);
}

// One setting's steps of one round; a failure on any rank ends the setting on every rank.
void replay_setting(const ReplayRun& run, std::size_t round, std::unique_ptr<SettingSession>& session,
                    SettingReplay& into) {
  std::optional<std::string> local;
  StepTimes times;
  try {
    times = session->run_steps(run.calls, run.replay.steps, round == 0 ? run.replay.warmup : 1);
  } catch (const Error& e) {
    local = e.what();
  }
  const std::optional<std::string> failure = run.control.agree_on_failure(local);
  if (failure) {
    into.failure = "replay failed in round " + std::to_string(round + 1) + ": " + *failure;
    session.reset();
    return;
  }
  append(into, times);
}

}  // namespace

ReplayMeasurement replay_rounds(const ReplayRun& run) {
  ReplayMeasurement out;
  for (const Setting& s : run.settings) out.settings.push_back(SettingReplay{.setting = s});
  Sessions sessions = open_all(run, out);
  const std::size_t n = run.settings.size();
  for (std::size_t round = 0; round < run.replay.rounds; ++round) {
    for (std::size_t k = 0; k < n; ++k) {
      if (run.control.any(run.interrupted())) return out;
      const std::size_t i = (k + round) % n;  // each round starts one setting later
      if (sessions[i]) replay_setting(run, round, sessions[i], out.settings[i]);
    }
    out.rounds_run = round + 1;
    if (run.after_round) run.after_round(round, out);
  }
  out.complete = true;
  return out;
}

}  // namespace commtune
