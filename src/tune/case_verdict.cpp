#include "tune/case_verdict.hpp"

#include <algorithm>
#include <limits>

#include "tune/comparison.hpp"

namespace commtune {
namespace {

const CaseResult* same_placement(const std::vector<const CaseResult*>& cases, Placement p) {
  for (const CaseResult* r : cases)
    if (r->spec.placement == p) return r;
  return nullptr;
}

}  // namespace

CaseVerdict judge(const CaseIndex& index, const std::string& candidate, const SizeKey& key, double min_margin) {
  return judge_against(index, kDefaultSettingName, candidate, key, min_margin);
}

CaseVerdict judge_against(const CaseIndex& index, const std::string& baseline_setting, const std::string& candidate,
                          const SizeKey& key, double min_margin) {
  CaseVerdict v;
  const auto& baseline = index.cases(baseline_setting, key);
  const auto& cases = index.cases(candidate, key);
  if (baseline.empty() || cases.empty()) return v;
  v.faster = true;
  v.gain = std::numeric_limits<double>::infinity();
  for (const CaseResult* base : baseline) {
    const CaseResult* cand = same_placement(cases, base->spec.placement);
    if (!cand || base->status != CaseStatus::Ok || cand->status != CaseStatus::Ok) return CaseVerdict{};
    const Comparison c = compare_stats(base->time_us, cand->time_us);
    v.faster = v.faster && clearly_faster(c, min_margin);
    v.slower = v.slower || clearly_slower(c, min_margin);
    v.noise_floor = std::max(v.noise_floor, c.noise_floor);
    if (gain_of(c) < v.gain) {
      v.gain = gain_of(c);
      v.default_us = c.baseline_us;
      v.candidate_us = c.candidate_us;
    }
  }
  v.measured = true;
  v.faster = v.faster && !v.slower;
  return v;
}

}  // namespace commtune
