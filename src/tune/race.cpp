#include "tune/race.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/text_format.hpp"
#include "tune/case_verdict.hpp"
#include "measure/decision.hpp"

namespace commtune {
namespace {

bool measured_ok(const std::vector<const CaseResult*>& cases) {
  return !cases.empty() && std::all_of(cases.begin(), cases.end(),
                                       [](const CaseResult* c) { return c->status == CaseStatus::Ok; });
}

// The time a setting is ranked by: its medians added over the placements.
double ranking_time(const std::vector<const CaseResult*>& cases) {
  double total = 0;
  for (const CaseResult* c : cases) total += c->time_us.median;
  return total;
}

// In every placement, `pick` is shown to be at most the margin slower than `other`, or faster:
// its change against `other` plus the noise floor is within the margin.
bool within_margin(const CaseIndex& index, const std::string& pick, const std::string& other,
                   const SizeKey& key, const DecisionRule& rule) {
  const auto& base = index.cases(other, key);
  const auto& cand = index.cases(pick, key);
  for (const CaseResult* b : base) {
    const CaseResult* c = case_in_placement(cand, b->spec.placement);
    if (!c) return false;
    if (!within_margin_of(compare_stats(b->time_us, c->time_us), rule)) return false;
  }
  return true;
}

std::string settle_reason(const std::string& pick, const std::string& best, const DecisionRule& rule) {
  const std::string who =
      pick == best ? pick + " (the fastest)" : pick + " (the default; " + best + " the fastest)";
  return who + " is shown to be within " + format_percent(rule.margin) +
         " of every setting left here, with its noise: the pick, and this one is measured no more";
}

// `v`: the best setting judged as the candidate against the dropped one as the baseline.
std::string drop_reason(const std::string& best, const CaseVerdict& v, const DecisionRule& rule) {
  return best + " is clearly faster here: " + format_percent(v.gain) + " less time in every placement (" +
         rule_text(rule) + "; noise floor " + format_percent(v.noise_floor) + ")";
}

// `v`: the setting judged as the candidate against the default, slower in some placement.
std::string cannot_win_reason(const CaseVerdict& v, const DecisionRule& rule) {
  return std::string(kDefaultSettingName) + " is clearly faster here in a placement: this one takes " +
         format_percent(-v.gain) + " more time there (" + rule_text(rule) +
         "); it cannot win against the default, which takes every placement";
}

// While the default races, a setting clearly slower than it in any placement can never be the
// pick: the tuner's rule needs it clearly faster than the default in every placement. It leaves
// the race now, whatever its other placements show.
std::vector<std::string> drop_losers_to_the_default(const CaseIndex& index, const SizeKey& key,
                                                    const std::vector<std::string>& racing,
                                                    const DecisionRule& rule,
                                                    std::vector<RaceDrop>& dropped) {
  if (std::find(racing.begin(), racing.end(), kDefaultSettingName) == racing.end()) return racing;
  std::vector<std::string> kept;
  for (const auto& name : racing) {
    const CaseVerdict against =
        name == kDefaultSettingName ? CaseVerdict{} : verdict_against_default(index, name, key, rule);
    if (against.measured && against.slower)
      dropped.push_back({name, cannot_win_reason(against, rule)});
    else
      kept.push_back(name);
  }
  return kept;
}

std::vector<std::string> ok_settings(const CaseIndex& index, const SizeKey& key,
                                     const std::vector<std::string>& alive) {
  std::vector<std::string> out;
  for (const auto& name : alive)
    if (measured_ok(index.cases(name, key))) out.push_back(name);
  return out;
}

std::string fastest(const CaseIndex& index, const SizeKey& key, const std::vector<std::string>& names) {
  std::string best;
  double best_time = std::numeric_limits<double>::infinity();
  for (const auto& name : names) {
    const double t = ranking_time(index.cases(name, key));
    if (t < best_time) {
      best_time = t;
      best = name;
    }
  }
  return best;
}

}  // namespace

RaceVerdict race_verdict(const CaseIndex& index, const SizeKey& key, const std::vector<std::string>& alive,
                         const DecisionRule& rule) {
  RaceVerdict v;
  const std::vector<std::string> racing =
      drop_losers_to_the_default(index, key, ok_settings(index, key, alive), rule, v.dropped);
  v.best = fastest(index, key, racing);
  if (v.best.empty()) {
    v.decided = true;
    return v;
  }
  v.survivors.push_back(v.best);
  for (const auto& name : racing) {
    if (name == v.best) continue;
    // The tuner's own rule with the dropped setting as the baseline: the best one would win against it.
    const CaseVerdict against = verdict_against(index, name, v.best, key, rule);
    if (against.faster)
      v.dropped.push_back({name, drop_reason(v.best, against, rule)});
    else
      v.survivors.push_back(name);
  }
  const bool has_default =
      std::find(v.survivors.begin(), v.survivors.end(), kDefaultSettingName) != v.survivors.end();
  const std::string pick = has_default ? std::string(kDefaultSettingName) : v.best;
  v.decided = std::all_of(v.survivors.begin(), v.survivors.end(), [&](const std::string& name) {
    return name == pick || within_margin(index, pick, name, key, rule);
  });
  if (!v.decided) return v;
  v.pick = pick;
  for (const auto& name : v.survivors)
    if (name != v.pick) v.settled.push_back({name, settle_reason(v.pick, v.best, rule)});
  return v;
}

}  // namespace commtune
