#include "sweep/confirm_round.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "plan/cost_model.hpp"
#include "plan/duration.hpp"
#include "plan/race_order.hpp"
#include "plan/race_schedule.hpp"
#include "writers/case_collector.hpp"
#include "sweep/session_cache.hpp"
#include "sweep/sweep_runner.hpp"
#include "control/typed_messages.hpp"
#include "tune/confirm_pruning.hpp"

namespace commtune {
namespace {

using nlohmann::json;

std::optional<std::size_t> setting_index(const Plan& plan, const std::string& name) {
  for (std::size_t i = 0; i < plan.settings.size(); ++i)
    if (plan.settings[i].name == name) return i;
  return std::nullopt;
}

std::vector<std::string> involved_settings(const std::vector<Finalists>& finalists) {
  std::vector<std::string> names{kDefaultSettingName};
  for (const auto& f : finalists)
    for (const auto& s : f.settings)
      if (std::find(names.begin(), names.end(), s) == names.end()) names.push_back(s);
  return names;
}

bool measures(const Finalists& f, const std::string& setting) {
  return setting == kDefaultSettingName ||
         std::find(f.settings.begin(), f.settings.end(), setting) != f.settings.end();
}

// One round: the involved settings in `order`, each at the sizes where it is still a finalist (a
// setting with none left is not opened). The settings keep the sweep's numbering, so that a
// session kept open by the race, or by an earlier round, serves them. A round measures its cases
// once: it is not raced.
Plan round_plan(const Plan& sweep, const std::vector<std::string>& order,
                const std::vector<Finalists>& finalists) {
  Plan plan{sweep.options, sweep.settings, {}, sweep.nranks, {}, sweep.groups};
  plan.options.race.enabled = false;
  plan.options.stopping = remeasure_rule(sweep.options.stopping);  // a round is one sample: its median
  plan.options.check = false;  // the sweep checked every case under the same setting
  for (const std::string& name : order) {
    const auto original = setting_index(sweep, name);
    if (!original) continue;
    for (const Case& c : sweep.cases)
      if (c.setting_index == *original &&
          std::any_of(finalists.begin(), finalists.end(),
                      [&](const Finalists& f) { return f.key == key_of(c) && measures(f, name); })) {
        Case copy = c;
        copy.index = plan.cases.size();
        plan.cases.push_back(copy);
      }
  }
  return plan;
}

std::size_t finalist_count(const std::vector<Finalists>& finalists) {
  std::size_t n = 0;
  for (const auto& f : finalists) n += f.settings.size();
  return n;
}

// The finalists still to measure after `ran` rounds of the re-measure (decided on rank 0, sent
// to all): at sizes whose rounds (the race's counted ones and these) are not all done, those that
// can still be confirmed. `done`: finalists whose rounds were all done, added up (rank 0).
std::vector<Finalists> next_finalists(const SweepRun& ctx, const std::vector<Finalists>& finalists,
                                      const std::vector<CaseResult>& measured, std::size_t rounds,
                                      const RaceRounds& race, std::size_t ran, std::size_t& done) {
  if (ctx.control.rank() != 0) return broadcast_value(ctx.control, std::vector<Finalists>{});
  std::vector<Finalists> open;
  for (const Finalists& f : finalists) {
    const auto counted = race.counted.find(f.key);
    if ((counted == race.counted.end() ? 0 : counted->second) + ran < rounds)
      open.push_back(f);
    else
      done += f.settings.size();
  }
  return broadcast_value(
      ctx.control, confirmable_finalists(open, fold_rounds(measured), rounds, ctx.plan.options.decision));
}

// --budget: whether a round fits in what is left of the whole budget, judged by the cost model
// scaled by how the rounds so far compared with their estimates (the model does not know the
// machine's load); before the first round, by how the sweep compared with its plan's estimate,
// at least 1 (a raced, cut or resumed sweep ran less than its whole plan: a quick pace there
// says little).
class RoundPace {
 public:
  explicit RoundPace(const SweepRun& ctx) {
    if (!ctx.budget) return;
    const double estimate = plan_cost(ctx.plan, ctx.budget->model).expected_s;
    if (estimate > 0) first_pace_ = std::max(1.0, ctx.budget->elapsed_s() / estimate);
  }

  // `sessions`: the settings kept open, which the round does not start again.
  bool fits(const SweepRun& ctx, const Plan& plan, const SessionCache& sessions) {
    if (!ctx.budget) return true;
    CostModel model = ctx.budget->model;
    if (std::all_of(plan.cases.begin(), plan.cases.end(),
                    [&](const Case& c) { return sessions.holds(c.setting_index); }))
      model.setting_start_s = 0;
    next_estimate_s_ = plan_cost(plan, model).expected_s;
    const double pace = estimated_s_ > 0 ? taken_s_ / estimated_s_ : first_pace_;
    return !ctx.control.any(ctx.budget->elapsed_s() + next_estimate_s_ * pace > ctx.budget->seconds);
  }

  template <class Run>
  RunSummary timed(Run run) {
    const auto start = std::chrono::steady_clock::now();
    RunSummary summary = run();
    taken_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    estimated_s_ += next_estimate_s_;
    return summary;
  }

 private:
  double first_pace_ = 1, next_estimate_s_ = 0, estimated_s_ = 0, taken_s_ = 0;
};

// The re-measure's own first measurement of case `c`: the first of `measured` from `from` on (the
// race's rounds come before it) with its setting, collective, size, placement and groups.
const CaseResult* first_measurement(const Case& c, const std::vector<CaseResult>& measured,
                                    std::size_t from) {
  for (std::size_t i = from; i < measured.size(); ++i) {
    const Case& m = measured[i].spec;
    if (m.setting_index == c.setting_index && m.collective == c.collective && m.bytes == c.bytes &&
        m.placement == c.placement && m.group == c.group)
      return &measured[i];
  }
  return nullptr;
}

// Round `r`: side by side (plan/race_order) when the backend keeps all its settings open, so a
// size's default and finalists are measured one after another; its sessions stay open for the
// next round (odd rounds visit the settings last to first, so the ones kept last are used first).
// A case samples in the block of its first re-measure round (`measured` from `from` on), so that
// its rounds' medians stand for the same calls.
RunSummary run_round(const SweepRun& ctx, const Plan& round, std::size_t r, SessionCache& sessions,
                     ResultSink& sink, const std::vector<CaseResult>& measured, std::size_t from) {
  sessions.close_failed();  // a setting that failed a case starts afresh
  Plan ordered = round;
  order_round(ordered.cases, r, side_by_side_fits(ordered.cases, sessions.capacity()));
  SweepRun run = ctx.with_plan(ordered).keeping_sessions(sessions);
  const StoppingRule rule = ordered.options.stopping;
  run.case_rule = [rule, &measured, from](const Case& c) {
    const CaseResult* first = first_measurement(c, measured, from);
    return first ? with_first_block(rule, *first) : rule;
  };
  return run_sweep(run, sink);
}

std::string budget_note(const SweepRun& ctx, std::size_t round, std::size_t rounds) {
  const std::string head = "--budget " + format_duration(ctx.budget->seconds) + ": ";
  if (round == 0)
    return head + "no time left for the finalists' re-measure after " +
           format_duration(ctx.budget->elapsed_s()) + "; the winners are the sweep's, not re-measured";
  return head + "the finalists' re-measure ran " + std::to_string(round) + " of its " +
         std::to_string(rounds) + " rounds (round " + std::to_string(round + 1) +
         " would not end within it); a winner had to win in each of them";
}

}  // namespace

std::vector<CaseResult> fold_rounds(const std::vector<CaseResult>& round_cases) {
  using Key = std::tuple<std::string, Collective, std::uint64_t, Placement>;
  std::map<Key, std::vector<const CaseResult*>> groups;
  std::vector<Key> order;
  for (const auto& r : round_cases) {
    const Key key{r.setting, r.spec.collective, r.spec.bytes, r.spec.placement};
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&r);
  }
  std::vector<CaseResult> out;
  for (const Key& key : order) {
    const auto& rounds = groups[key];
    const auto bad = std::find_if(rounds.begin(), rounds.end(),
                                  [](const CaseResult* r) { return r->status != CaseStatus::Ok; });
    if (bad != rounds.end()) {
      out.push_back(**bad);
      continue;
    }
    std::vector<double> medians_us;
    for (const CaseResult* r : rounds) medians_us.push_back(r->time_us.median);
    std::vector<double> medians_s;
    for (const double us : medians_us) medians_s.push_back(us * 1e-6);
    out.push_back(measured_case(rounds.front()->spec, rounds.front()->setting, rounds.front()->nranks,
                                medians_s, rounds.front()->pipelined_us * 1e-6,
                                std::max<std::int64_t>(rounds.front()->wrong, 0)));
    if (rounds.front()->wrong < 0) out.back().wrong = -1;
    out.back().round_medians_us = std::move(medians_us);
  }
  return out;
}

Confirmation run_confirm_round(const SweepRun& ctx, const std::vector<Finalists>& finalists,
                               std::size_t rounds, const RaceRounds& race) {
  std::vector<Finalists> shared = broadcast_value(ctx.control, finalists);
  Confirmation out;
  if (shared.empty() || rounds == 0) return out;
  const std::size_t started = finalist_count(shared);
  std::vector<std::string> order = involved_settings(shared);
  std::vector<CaseResult> measured = race.cases;  // the race's rounds first, in round order
  std::size_t done = 0;
  shared = next_finalists(ctx, shared, measured, rounds, race, 0, done);  // a race round may refute
  CaseCollector collector(measured);
  RoundPace pace(ctx);
  SessionCache own(ctx.backend.cost_model().sessions_kept);  // when the sweep kept none open
  SessionCache& sessions = ctx.sessions ? *ctx.sessions : own;
  for (std::size_t r = 0; r < rounds && !shared.empty(); ++r) {
    const Plan plan = round_plan(ctx.plan, order, shared);
    if (!pace.fits(ctx, plan, sessions)) {
      out.budget_note = budget_note(ctx, r, rounds);
      break;
    }
    const RunSummary summary =
        pace.timed([&] { return run_round(ctx, plan, r, sessions, collector, measured, race.cases.size()); });
    if (!summary.complete) return Confirmation{};
    ++out.rounds;
    std::rotate(order.begin(), order.begin() + 1, order.end());
    shared = next_finalists(ctx, shared, measured, rounds, race, r + 1, done);
  }
  const std::size_t stopped = started - finalist_count(shared) - done;
  if (ctx.control.rank() == 0 && stopped > 0 && out.budget_note.empty())
    std::cerr << ("commtune: re-measure: " + std::to_string(stopped) + " of " + std::to_string(started) +
                  " finalist(s) measured no more once one of their rounds was not the margin below the "
                  "default's median of the same round (they cannot be confirmed)\n")
              << std::flush;
  if (ctx.control.rank() == 0 && !out.budget_note.empty())
    std::cerr << ("commtune: " + out.budget_note + "\n") << std::flush;
  if (out.rounds == 0 && (measured.empty() || !out.budget_note.empty()))
    return out;  // else refuted by the race
  ResultsDocument doc;
  doc.schema_version = 1;
  doc.settings = ctx.plan.settings;
  doc.cases = fold_rounds(measured);
  doc.complete = true;
  out.cases = std::move(doc);
  return out;
}

}  // namespace commtune
