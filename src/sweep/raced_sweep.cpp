#include "sweep/raced_sweep.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "plan/cost_model.hpp"
#include "plan/duration.hpp"
#include "plan/race_order.hpp"
#include "plan/race_schedule.hpp"
#include "sweep/race_rounds.hpp"
#include "sweep/session_cache.hpp"
#include "sweep/sweep_runner.hpp"
#include "tune/race.hpp"
#include "tune/tune_options.hpp"

namespace commtune {
namespace {

// Shows each round's cases and keeps them, by plan case index, for pooling.
class RoundSink : public ResultSink {
 public:
  RoundSink(ResultSink& display, std::map<std::size_t, std::vector<CaseResult>>& rounds)
      : display_(display), rounds_(rounds) {}
  void setting_started(const Setting& s) override { display_.setting_started(s); }
  void case_finished(const CaseResult& r) override {
    display_.case_finished(r);
    rounds_[r.spec.index].push_back(r);
  }

 private:
  ResultSink& display_;
  std::map<std::size_t, std::vector<CaseResult>>& rounds_;
};

class Race {
 public:
  Race(const SweepRun& run, ResultSink& keep) : run_(run), keep_(keep) {
    for (const Case& c : run.plan.cases) {
      auto& alive = alive_[key_of(c)];
      if (alive.empty() || alive.back() != c.setting_index) alive.push_back(c.setting_index);
    }
    for (const auto& [key, settings] : alive_) contestants_[key] = settings.size();
  }

  enum class RoundEnd { Done, Interrupted, BudgetSpent };

  // Round 0 also measures the sizes with one setting only, with the full sampling: there is
  // nothing to race for, so they are measured once, as exhaustively. Round 0 always runs whole
  // (without it nothing is known); a later round stops when the budget is spent.
  RoundEnd run_round(std::size_t round, ResultSink& display) {
    if (run_.sessions) run_.sessions->close_failed();  // a setting that failed a case starts afresh
    if (run_.budget) estimated_done_s_ += round_estimate(round);
    std::vector<Plan> plans{round_plan(round, false)};
    if (round == 0) plans.insert(plans.begin(), round_plan(round, true));
    if (round == side_by_side_rounds_ && runs_side_by_side(plans.back())) ++side_by_side_rounds_;
    Plan judged = plans.back();
    judged.cases.clear();
    for (const Plan& plan : plans) {
      if (plan.cases.empty()) continue;
      display.round_started(round, rounds(), plan.cases.size());
      RoundSink sink(display, rounds_);
      SweepRun runner = round > 0 && run_.budget ? budget_stopped(plan) : run_.with_plan(plan);
      if (&plan == &plans.back())  // raced: round 0 stops once clearly slower, later rounds keep its blocks
        runner.case_rule = [this, &plan, round](const Case& c) {
          return race_case_rule(plan.options.stopping, round, c, run_.plan, rounds_);
        };
      if (!run_sweep(runner, sink).complete)
        return run_.control.any(run_.interrupted()) ? RoundEnd::Interrupted : RoundEnd::BudgetSpent;
      judged.cases.insert(judged.cases.end(), plan.cases.begin(), plan.cases.end());
    }
    decide_round(judged, round + 1 == rounds());
    return RoundEnd::Done;
  }

  // With --budget: whether round `round` (1 and on) would end after the budget, as every rank
  // agrees (each judges by its own clock; any one saying no stops them all). The round's estimate
  // is scaled by how the rounds so far compared with theirs: the model does not know the load.
  bool round_fits(std::size_t round) const {
    if (!run_.budget || round == 0) return true;
    const double elapsed = run_.budget->elapsed_s();
    const double pace = estimated_done_s_ > 0 ? elapsed / estimated_done_s_ : 1.0;
    return !run_.control.any(elapsed + round_estimate(round) * pace > run_.budget->sweep_seconds);
  }

  // The expected seconds of round `round` by the budget's cost model, measured once each.
  double round_estimate(std::size_t round) const {
    double total = 0;
    for (bool alone : {false, true}) {
      if (alone && round > 0) continue;
      Plan plan = round_cases(round, alone);  // setting by setting: each kept setting counted as one start
      plan.options.race.enabled = false;
      total += plan_cost(plan, run_.budget->model).expected_s;
    }
    return total;
  }

  // Every size still racing ends now: its survivors are final as measured, unmarked.
  void end_race() {
    std::vector<Case> open;
    for (const Case& c : run_.plan.cases)
      if (racing(c) && rounds_.count(c.index)) open.push_back(c);
    Plan last = run_.plan;
    last.cases = open;
    decide_round(last, true);
  }

  std::size_t undecided() const { return alive_.size(); }

  bool finished() const { return alive_.empty(); }
  std::size_t rounds() const { return run_.plan.options.race.rounds; }

  // After an interrupt: every case measured so far, pooled, unmarked.
  void pass_on_unfinished() {
    for (const Case& c : run_.plan.cases)
      if (!final_.count(c.index) && rounds_.count(c.index)) emit(pooled_case(c));
  }

  const RunSummary& summary() const { return summary_; }

 private:
  SweepRun budget_stopped(const Plan& plan) const {
    const SweepBudget budget = *run_.budget;
    return run_.with_plan(plan).stopping_also([budget] { return budget.sweep_spent(); });
  }

  bool racing(const Case& c) const {
    const auto it = alive_.find(key_of(c));
    return it != alive_.end() &&
           std::find(it->second.begin(), it->second.end(), c.setting_index) != it->second.end();
  }

  bool uncontested(const Case& c) const { return contestants_.at(key_of(c)) == 1; }

  // The cases still racing, in the plan's order; `alone`: those of the sizes with one setting, with
  // the full sampling. Later rounds skip the data check (round 0 checked every case under the
  // same setting).
  Plan round_cases(std::size_t round, bool alone) const {
    Plan plan = run_.plan;
    plan.cases.clear();
    for (const Case& c : run_.plan.cases)
      if (racing(c) && uncontested(c) == alone) plan.cases.push_back(c);
    if (alone) return plan;
    plan.options.stopping = round_rule(run_.plan.options.stopping, run_.plan.options.race, round);
    if (round > 0) plan.options.check = false;
    return plan;
  }

  // The round as it runs (plan/race_order): side by side when the session cache keeps every
  // setting of it open, else setting by setting; the order of the settings alternates by round.
  Plan round_plan(std::size_t round, bool alone) const {
    Plan plan = round_cases(round, alone);
    if (alone) return plan;
    order_round(plan.cases, round, runs_side_by_side(plan));
    return plan;
  }

  bool runs_side_by_side(const Plan& round) const {
    return side_by_side_fits(round.cases, run_.sessions ? run_.sessions->capacity() : 0);
  }

  // A case's rounds pooled; a raced size's keep their medians while its rounds ran side by side (a
  // size with one setting had nothing to run beside).
  CaseResult pooled_case(const Case& c) const {
    return pool_race_rounds(rounds_.at(c.index), uncontested(c) ? 0 : side_by_side_rounds_);
  }

  // The pooled cases of the settings still racing at the round's sizes.
  ResultsDocument pooled(const Plan& round) const {
    ResultsDocument doc;
    doc.settings = run_.plan.settings;
    for (const Case& c : round.cases) doc.cases.push_back(pooled_case(c));
    return doc;
  }

  void decide_round(const Plan& round, bool last) {
    const ResultsDocument doc = pooled(round);
    const CaseIndex index(doc);
    std::set<SizeKey> keys;
    for (const Case& c : round.cases) keys.insert(key_of(c));
    for (const SizeKey& key : keys) decide_size(doc, index, key, last);
  }

  std::vector<std::string> names(const std::vector<std::size_t>& settings) const {
    std::vector<std::string> out;
    for (std::size_t s : settings) out.push_back(run_.plan.settings[s].name);
    return out;
  }

  void decide_size(const ResultsDocument& doc, const CaseIndex& index, const SizeKey& key, bool last) {
    const RaceVerdict verdict = race_verdict(index, key, names(alive_[key]), run_.plan.options.decision);
    std::map<std::string, std::string> dropped;  // clearly slower, or settled within the margin of the pick
    for (const RaceDrop& d : verdict.dropped) dropped[d.setting] = d.reason;
    for (const RaceDrop& d : verdict.settled) dropped[d.setting] = d.reason;
    const bool over = verdict.decided || last;
    std::vector<std::size_t> still;
    for (std::size_t s : alive_[key]) {
      const std::string& name = run_.plan.settings[s].name;
      const bool survives =
          std::find(verdict.survivors.begin(), verdict.survivors.end(), name) != verdict.survivors.end();
      if (survives && !over) {
        still.push_back(s);
        continue;
      }
      const auto drop = dropped.find(name);
      finish(doc, name, key,
             drop == dropped.end()
                 ? std::nullopt
                 : std::optional<RacedOut>(RacedOut{round_count_of(doc, name, key), drop->second}));
    }
    if (still.empty())
      alive_.erase(key);
    else
      alive_[key] = still;
  }

  std::size_t round_count_of(const ResultsDocument& doc, const std::string& name, const SizeKey& key) const {
    for (const CaseResult& r : doc.cases)
      if (r.setting == name && key_of(r.spec) == key) return rounds_.at(r.spec.index).size();
    return 1;
  }

  void finish(const ResultsDocument& doc, const std::string& name, const SizeKey& key,
              const std::optional<RacedOut>& mark) {
    for (const CaseResult& r : doc.cases) {
      if (r.setting != name || !(key_of(r.spec) == key)) continue;
      CaseResult out = r;
      out.raced_out = mark;
      emit(out);
    }
  }

  void emit(const CaseResult& r) {
    final_.insert(r.spec.index);
    if (r.status == CaseStatus::WrongData)
      ++summary_.wrong_data;
    else if (!r.measured())
      ++summary_.failed;
    if (r.measured()) ++summary_.measured;
    keep_.case_finished(r);
  }

  const SweepRun& run_;
  ResultSink& keep_;
  std::map<SizeKey, std::vector<std::size_t>> alive_;  // (collective, size) -> settings still racing there
  std::map<SizeKey, std::size_t> contestants_;         // (collective, size) -> settings at the start
  std::map<std::size_t, std::vector<CaseResult>> rounds_;  // plan case index -> its rounds so far
  std::set<std::size_t> final_;
  std::size_t side_by_side_rounds_ = 0;  // the rounds from round 0 whose raced cases ran side by side
  RunSummary summary_;
  double estimated_done_s_ = 0;  // --budget: the rounds run so far, as the cost model saw them
};

std::string budget_notice(const SweepRun& run, std::size_t round, std::size_t undecided, bool stopped) {
  const std::string part = "the sweep's " + format_duration(run.budget->sweep_seconds) + " of it";
  const std::string what =
      stopped ? "round " + std::to_string(round + 1) + " stopped when " + part + " were spent"
              : "round " + std::to_string(round + 1) + " would not end within " + part;
  return "--budget " + format_duration(run.budget->seconds) + ": racing ends after " +
         format_duration(run.budget->elapsed_s()) + " (" + what + "); " + std::to_string(undecided) +
         " sizes undecided keep their survivors as measured";
}

}  // namespace

RunSummary run_raced_sweep(const SweepRun& given, ResultSink& display, ResultSink& keep) {
  // The caller's sessions where it keeps them (for the finalists' re-measure after the race); else
  // the race's own, closed on every rank alike when the race ends.
  SessionCache own(given.backend.cost_model().sessions_kept);
  const SweepRun run = given.sessions ? given : given.keeping_sessions(own);
  Race race(run, keep);
  try {
    for (std::size_t round = 0; round < race.rounds() && !race.finished(); ++round) {
      if (!race.round_fits(round)) {
        display.notice(budget_notice(run, round, race.undecided(), false));
        race.end_race();
        break;
      }
      const Race::RoundEnd end = race.run_round(round, display);
      if (end == Race::RoundEnd::Done) continue;
      if (end == Race::RoundEnd::BudgetSpent) {
        display.notice(budget_notice(run, round, race.undecided(), true));
        race.end_race();
        break;
      }
      race.pass_on_unfinished();
      RunSummary out = race.summary();
      out.complete = false;
      return out;
    }
  } catch (...) {  // a lost peer, a deadline: what was measured is written before the job ends
    race.pass_on_unfinished();
    throw;
  }
  return race.summary();
}

}  // namespace commtune
