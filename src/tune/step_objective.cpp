#include "tune/step_objective.hpp"

#include <cmath>
#include <map>

#include "plan/sizes.hpp"
#include "tune/case_verdict.hpp"

namespace commtune {
namespace {

// The measured size of the call's collective and group nearest to its bytes (log scale); null when
// none was measured.
const SizeKey* nearest(const std::vector<SizeKey>& measured, const ObjectiveCall& call) {
  const SizeKey* best = nullptr;
  double distance = 0;
  for (const SizeKey& k : measured) {
    if (k.collective != call.collective || k.group != call.group) continue;
    const double d = std::abs(std::log(static_cast<double>(k.bytes) / static_cast<double>(call.bytes)));
    if (!best || d < distance) best = &k, distance = d;
  }
  return best;
}

double default_median(const CaseIndex& index, const SizeKey& key) {
  const CaseVerdict v = verdict_against_default(index, kDefaultSettingName, key, DecisionRule{});
  if (v.default_us > 0) return v.default_us;
  for (const CaseResult* c : index.cases(kDefaultSettingName, key))
    if (c->measured()) return c->time_us.median;
  return 0;
}

std::string call_name(const ObjectiveCall& c) {
  return std::string(name_of(c.collective)) + " " + format_size(c.bytes) +
         (c.group == "world" ? "" : " on " + c.group);
}

}  // namespace

StepWeights step_weights(const CaseIndex& index, const std::vector<ObjectiveCall>& step) {
  StepWeights out;
  const std::vector<SizeKey> measured = index.default_sizes();
  std::map<SizeKey, double> counts;
  for (const ObjectiveCall& call : step) {
    const SizeKey* key = nearest(measured, call);
    if (!key) {
      out.notes.push_back("workload: " + call_name(call) + " left out: the sweep has no " +
                          std::string(name_of(call.collective)) + " on " + call.group);
      continue;
    }
    if (key->bytes != call.bytes)
      out.notes.push_back("workload: " + call_name(call) + " weighed at the nearest measured size, " +
                          format_size(key->bytes) + " (sweep --workload measures the job's own sizes)");
    counts[*key] += call.count;
  }
  for (const auto& [key, count] : counts) {
    const double us = default_median(index, key);
    if (us <= 0) continue;
    out.keys.push_back({key, count, us});
    out.default_step_us += count * us;
  }
  return out;
}

StepWeights step_part(const StepWeights& weights, const std::vector<Collective>& collectives) {
  StepWeights out;
  for (const StepKey& k : weights.keys)
    for (Collective c : collectives)
      if (k.key.collective == c) {
        out.keys.push_back(k);
        out.default_step_us += k.count * k.default_us;
      }
  return out;
}

StepGain step_gain(const CaseIndex& index, const StepWeights& weights, const std::string& setting,
                   const DecisionRule& rule) {
  StepGain out;
  if (weights.default_step_us <= 0) return out;
  double step_us = 0, won_us = 0;
  for (const StepKey& k : weights.keys) {
    const CaseVerdict v = verdict_against_default(index, setting, k.key, rule);
    out.measured = out.measured || v.measured;
    const bool decided = v.measured && (v.faster || v.slower) && v.candidate_us > 0 && v.default_us > 0;
    // The setting's time in the default's units: its ratio to the default at this size.
    step_us += k.count * k.default_us * (decided ? v.candidate_us / v.default_us : 1.0);
    if (v.measured && v.faster) won_us += k.count * k.default_us;
  }
  out.gain = 1.0 - step_us / weights.default_step_us;
  out.weight_won = won_us / weights.default_step_us;
  return out;
}

}  // namespace commtune
