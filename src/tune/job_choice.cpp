#include "tune/tuner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/text_format.hpp"
#include "plan/sizes.hpp"
#include "tune/case_verdict.hpp"
#include "tune/step_objective.hpp"
#include "knobs/knob_scope.hpp"

namespace commtune {
namespace {

struct Scope {
  std::string name;                     // "process" or a collective
  std::vector<Collective> collectives;  // the sizes it is judged on
  bool process = false;
};

struct Score {
  double objective_gain = 0;
  double weight_won = 0;
  bool has_win = false;
};

std::vector<SizeKey> keys_in(const std::vector<SizeKey>& keys, const std::vector<Collective>& collectives,
                             const Objective* objective) {
  std::vector<SizeKey> out;
  for (const SizeKey& k : keys)
    if (std::find(collectives.begin(), collectives.end(), k.collective) != collectives.end() &&
        (!objective || objective->covers(k.bytes)))
      out.push_back(k);
  return out;
}

bool won_at(const Recommendation& rec, const std::string& setting, const SizeKey& key) {
  return std::any_of(rec.sizes.begin(), rec.sizes.end(), [&](const SizeDecision& d) {
    return d.collective == key.collective && d.bytes == key.bytes && d.group.spec == key.group &&
           d.winner == setting;
  });
}

Score score(const CaseIndex& index, const Recommendation& rec, const std::string& setting,
            const std::vector<SizeKey>& keys, const TuneOptions& options) {
  double log_sum = 0, weight = 0, won = 0;
  Score s;
  for (const SizeKey& key : keys) {
    const CaseVerdict v = verdict_against_default(index, setting, key, options.decision);
    if (!v.measured) continue;
    const double w = options.objective.weight(key.collective);
    weight += w;
    if ((v.faster || v.slower) && v.candidate_us > 0) log_sum += w * std::log(v.default_us / v.candidate_us);
    if (v.faster) won += w;
    s.has_win = s.has_win || won_at(rec, setting, key);
  }
  if (weight <= 0) return Score{};
  s.objective_gain = 1.0 - std::exp(-log_sum / weight);
  s.weight_won = won / weight;
  return s;
}

// The same on a workload's step (tune --workload): the expected change of the step's time.
Score step_score(const CaseIndex& index, const Recommendation& rec, const std::string& setting,
                 const StepWeights& step, const TuneOptions& options) {
  const StepGain g = step_gain(index, step, setting, options.decision);
  if (!g.measured) return Score{};
  Score s{.objective_gain = g.gain, .weight_won = g.weight_won, .has_win = false};
  for (const StepKey& k : step.keys) s.has_win = s.has_win || won_at(rec, setting, k.key);
  return s;
}

// Contiguous runs of measured sizes where the setting is clearly faster (or clearly slower).
std::vector<RangeGain> ranges(const CaseIndex& index, const std::string& setting,
                              const std::vector<SizeKey>& keys, const DecisionRule& rule) {
  std::vector<RangeGain> out;
  int open = 0;                          // +1 faster run, -1 slower run, 0 none
  std::vector<SizeKey> by_group = keys;  // each group spec's sizes together, the world's first
  const auto group_order = [](const SizeKey& k) { return std::make_pair(k.group != "world", k.group); };
  std::stable_sort(by_group.begin(), by_group.end(),
                   [&](const SizeKey& a, const SizeKey& b) { return group_order(a) < group_order(b); });
  for (const SizeKey& key : by_group) {
    const CaseVerdict v = verdict_against_default(index, setting, key, rule);
    const int kind = v.faster ? 1 : (v.slower ? -1 : 0);
    const bool extend =
        kind != 0 && kind == open && out.back().collective == key.collective && out.back().group == key.group;
    if (extend) {
      out.back().max_bytes = key.bytes;
      out.back().min_gain = std::min(out.back().min_gain, v.gain);
      out.back().max_gain = std::max(out.back().max_gain, v.gain);
      ++out.back().sizes;
    } else if (kind != 0) {
      out.push_back({.collective = key.collective,
                     .min_bytes = key.bytes,
                     .max_bytes = key.bytes,
                     .min_gain = v.gain,
                     .max_gain = v.gain,
                     .sizes = 1,
                     .group = key.group});
    }
    open = kind;
  }
  return out;
}

bool candidate_in(const Setting& s, const Scope& scope, const CaseIndex& index) {
  if (s.is_default() || index.disqualified().count(s.name)) return false;
  if (scope.process) return is_process_setting(s);
  return is_per_collective_setting(s) && s.applies_to(scope.collectives.front());
}

JobChoice choose_in(const CaseIndex& index, const Recommendation& rec, const Scope& scope,
                    const std::vector<SizeKey>& range, const TuneOptions& options, const StepWeights* step) {
  JobChoice best{scope.name, kDefaultSettingName, 0, 0, {}, ""};
  std::string runner_up;
  for (const Setting& s : rec.settings) {
    if (!candidate_in(s, scope, index)) continue;
    const Score sc =
        step ? step_score(index, rec, s.name, *step, options) : score(index, rec, s.name, range, options);
    const bool passes = sc.has_win && sc.objective_gain >= options.decision.margin;
    if (passes && (best.setting == kDefaultSettingName || sc.objective_gain > best.objective_gain)) {
      best.setting = s.name;
      best.objective_gain = sc.objective_gain;
      best.weight_won = sc.weight_won;
    } else if (!passes && runner_up.empty()) {
      runner_up = s.name + " (objective " + format_percent(sc.objective_gain) +
                  (sc.has_win ? "" : ", no confirmed win") + ")";
    }
  }
  if (best.setting == kDefaultSettingName) {
    best.why = "nothing beats the default on the objective" +
               (runner_up.empty() ? std::string() : "; best tried: " + runner_up);
    return best;
  }
  best.gains = ranges(index, best.setting, keys_in(index.default_sizes(), scope.collectives, nullptr),
                      options.decision);
  best.why = step ? "saves " + format_percent(best.objective_gain) +
                        " of the step's communication time (each of the workload's sizes by its share under "
                        "the default), clearly faster on " +
                        format_percent(best.weight_won) + " of it"
                  : "saves " + format_percent(best.objective_gain) +
                        " on the objective (weighted geometric mean), clearly faster on " +
                        format_percent(best.weight_won) + " of its weight";
  return best;
}

std::vector<Scope> scopes_of(const CaseIndex& index) {
  std::vector<Collective> collectives;
  for (const SizeKey& k : index.default_sizes())
    if (std::find(collectives.begin(), collectives.end(), k.collective) == collectives.end())
      collectives.push_back(k.collective);
  std::vector<Scope> scopes;
  for (Collective c : collectives) scopes.push_back({std::string(name_of(c)), {c}, false});
  scopes.push_back({"process", collectives, true});
  return scopes;
}

}  // namespace

namespace {

// tune --workload: each scope judged on the step's calls of its collectives; a scope whose
// collectives the step does not run keeps the default.
void choose_on_step(const CaseIndex& index, const TuneOptions& options, Recommendation& rec) {
  const StepWeights step = step_weights(index, options.objective.step);
  rec.notes.insert(rec.notes.end(), step.notes.begin(), step.notes.end());
  for (const Scope& scope : scopes_of(index)) {
    const bool any = std::any_of(rec.settings.begin(), rec.settings.end(),
                                 [&](const Setting& s) { return candidate_in(s, scope, index); });
    if (!any) continue;
    const StepWeights part = step_part(step, scope.collectives);
    if (part.keys.empty()) {
      rec.choices.push_back(
          JobChoice{scope.name, kDefaultSettingName, 0, 0, {}, "the workload's step runs no " + scope.name});
      continue;
    }
    rec.choices.push_back(choose_in(index, rec, scope, {}, options, &part));
    const JobChoice& c = rec.choices.back();
    if (c.setting != kDefaultSettingName)
      rec.notes.push_back("workload " + options.objective.step_origin + ": " + c.setting + " (" + scope.name +
                          ") changes the step's communication time by " + format_percent(-c.objective_gain) +
                          " (its " + format_percent(part.default_step_us / step.default_step_us) +
                          " of the step under the default)");
  }
}

}  // namespace

void choose_job_settings(const CaseIndex& index, const TuneOptions& options, Recommendation& rec) {
  if (!options.objective.step.empty()) return choose_on_step(index, options, rec);
  const std::vector<SizeKey> all = index.default_sizes();
  for (const Scope& scope : scopes_of(index)) {
    const bool any = std::any_of(rec.settings.begin(), rec.settings.end(),
                                 [&](const Setting& s) { return candidate_in(s, scope, index); });
    if (!any) continue;
    std::vector<SizeKey> range = keys_in(all, scope.collectives, &options.objective);
    if (range.empty()) {
      range = keys_in(all, scope.collectives, nullptr);
      rec.notes.push_back(scope.name +
                          ": no measured size in the objective's range; judged on every measured size");
    }
    rec.choices.push_back(choose_in(index, rec, scope, range, options, nullptr));
  }
}

}  // namespace commtune
