#include "tune/case_verdict.hpp"

#include <algorithm>
#include <limits>

#include "measure/decision.hpp"
#include "tune/run_verdict.hpp"

namespace commtune {
namespace {

// Between launches (a repeated sweep, or several results files): with runs on both sides, every
// candidate run must be faster than the default's fastest run by the same practical threshold
// (tune/run_verdict.hpp's rule, without widening: the pooled rule above guards a side of few runs).
Verdict runs_verdict(const CaseResult& base, const CaseResult& cand, const Comparison& c,
                     const DecisionRule& rule) {
  if (base.run_medians_us.size() < 2 || cand.run_medians_us.size() < 2) return Verdict::Same;
  const RunRule run_rule{practical_threshold(c, rule), 0};
  return runs_verdict(CaseRuns{base.run_medians_us}, CaseRuns{cand.run_medians_us}, run_rule).verdict;
}

}  // namespace

bool judged_paired(const CaseResult& base, const CaseResult& cand) {
  return !base.round_medians_us.empty() && !cand.round_medians_us.empty();
}

CaseVerdict verdict_against_default(const CaseIndex& index, const std::string& candidate, const SizeKey& key,
                                    const DecisionRule& rule) {
  return verdict_against(index, kDefaultSettingName, candidate, key, rule);
}

CaseVerdict verdict_against(const CaseIndex& index, const std::string& baseline_setting,
                            const std::string& candidate, const SizeKey& key, const DecisionRule& rule) {
  CaseVerdict v;
  const auto& baseline = index.cases(baseline_setting, key);
  const auto& cases = index.cases(candidate, key);
  if (baseline.empty() || cases.empty()) return v;
  v.faster = true;
  v.gain = std::numeric_limits<double>::infinity();
  for (const CaseResult* base : baseline) {
    const CaseResult* cand = case_in_placement(cases, base->spec.placement);
    if (!cand || base->status != CaseStatus::Ok || cand->status != CaseStatus::Ok) return CaseVerdict{};
    const Comparison c = compare_stats(base->time_us, cand->time_us);
    if (judged_paired(*base, *cand)) {
      v.faster = v.faster && paired_clearly_faster(base->round_medians_us, cand->round_medians_us, rule);
      v.slower = v.slower || paired_clearly_slower(base->round_medians_us, cand->round_medians_us, rule);
    } else {
      const Verdict runs = runs_verdict(*base, *cand, c, rule);
      const bool runs_agree =
          base->run_medians_us.size() < 2 || cand->run_medians_us.size() < 2 || runs == Verdict::Faster;
      v.runs_overlap = v.runs_overlap || (clearly_faster(c, rule) && !runs_agree);
      v.faster = v.faster && clearly_faster(c, rule) && runs_agree;
      v.slower = v.slower || clearly_slower(c, rule);
    }
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
