#include "sweep/sweep_runner.hpp"

#include <optional>

#include "core/errors.hpp"
#include "measure/cpu_clock.hpp"
#include "sweep/session_cache.hpp"

namespace commtune {
namespace {

// The plan's cases in order, cut where the setting changes: a planner's plan has one segment per
// setting; a rotated run (--repeat) may visit its first setting twice, opening it afresh.
struct Segment {
  std::size_t setting_index = 0;
  std::vector<const Case*> cases;
};

std::vector<Segment> setting_segments(const Plan& plan) {
  std::vector<Segment> out;
  for (const auto& c : plan.cases) {
    if (out.empty() || out.back().setting_index != c.setting_index) out.push_back({c.setting_index, {}});
    out.back().cases.push_back(&c);
  }
  return out;
}

void record(ResultSink& sink, RunSummary& summary, const CaseResult& result) {
  if (result.status == CaseStatus::WrongData)
    ++summary.wrong_data;
  else if (!result.measured())
    ++summary.failed;
  if (result.measured()) ++summary.measured;
  sink.case_finished(result);
}

std::unique_ptr<SettingSession> open_setting(const SweepRun& ctx, std::size_t index,
                                             std::optional<std::string>& failure) {
  const Setting& setting = ctx.plan.settings[index];
  std::unique_ptr<SettingSession> session = ctx.sessions ? ctx.sessions->take(index) : nullptr;
  if (session) return session;  // kept open from an earlier plan (racing's rounds): every rank kept it
  std::optional<std::string> local;
  try {
    session = ctx.backend.open(setting, ctx.plan.options);
  } catch (const Error& e) {
    local = e.what();
  }
  failure = ctx.control.agree_on_failure(local);
  if (failure) session.reset();
  return session;
}

// The case's outcome as every rank agrees on it, with what it cost (CaseCost: this rank's wall
// seconds up to the agreement).
CaseResult run_one(const SweepRun& ctx, SettingSession& session, const Setting& setting, const Case& c) {
  const double start = monotonic_seconds();
  std::optional<std::string> local;
  CaseResult result;
  try {
    std::optional<SweepOptions> own;  // the case's own stopping rule, where the run gives one
    if (ctx.case_rule) own.emplace(ctx.plan.options).stopping = ctx.case_rule(c);
    result = session.run_case(c, setting, own ? *own : ctx.plan.options);
  } catch (const Error& e) {
    local = e.what();
  }
  const std::optional<std::string> failure = ctx.control.agree_on_failure(local);
  if (failure) result = failed_case(c, setting.name, ctx.plan.nranks, CaseStatus::Failed, *failure);
  if (!result.cost) result.cost = CaseCost{};
  result.cost->case_s = monotonic_seconds() - start;
  return result;
}

// Returns false when the sweep was interrupted.
bool run_setting(const SweepRun& ctx, ResultSink& sink, const Segment& segment, RunSummary& summary) {
  const Setting& setting = ctx.plan.settings[segment.setting_index];
  const std::vector<const Case*>& cases = segment.cases;
  sink.setting_started(setting);
  std::optional<std::string> failure;
  std::unique_ptr<SettingSession> session = open_setting(ctx, segment.setting_index, failure);
  bool all_ok = true;
  for (const Case* c : cases) {
    if (ctx.control.any(ctx.interrupted())) return false;
    if (!session) {
      record(sink, summary,
             failed_case(*c, setting.name, ctx.plan.nranks, CaseStatus::Failed,
                         "setting not applied: " + *failure));
      continue;
    }
    const CaseResult result = run_one(ctx, *session, setting, *c);
    all_ok = all_ok && result.status == CaseStatus::Ok;
    record(sink, summary, result);
  }
  // Given back whatever its cases measured (every rank agrees on whether they all did): a round
  // run side by side goes on with it at its next size; the next round opens a failed one afresh.
  if (ctx.sessions && session)
    ctx.sessions->give_back(segment.setting_index, std::move(session), !ctx.control.any(!all_ok));
  return true;
}

}  // namespace

RunSummary run_sweep(const SweepRun& run, ResultSink& sink) {
  RunSummary summary;
  for (const Segment& segment : setting_segments(run.plan)) {
    summary.complete = run_setting(run, sink, segment, summary);
    if (!summary.complete) break;
  }
  return summary;
}

}  // namespace commtune
