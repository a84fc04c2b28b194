#include "tune/confirm_pruning.hpp"

#include <algorithm>
#include <utility>

#include "measure/decision.hpp"
#include "measure/statistics.hpp"
#include "tune/case_index.hpp"
#include "tune/case_verdict.hpp"

namespace commtune {
namespace {

// Whether `setting` may still be confirmed at `key`: in each placement, by the paired rule where
// both sides have round medians, else with all its round medians below all of the default's
// (checked only where `range_rule`: the final interval is the range of the medians).
bool confirmable_at(const CaseIndex& index, const std::string& setting, const SizeKey& key,
                    const DecisionRule& rule, bool range_rule) {
  for (const CaseResult* base : index.cases(kDefaultSettingName, key)) {
    const CaseResult* cand = case_in_placement(index.cases(setting, key), base->spec.placement);
    if (!cand) continue;  // not measured yet in this placement: nothing known
    if (base->status != CaseStatus::Ok || cand->status != CaseStatus::Ok) return false;
    const bool paired = judged_paired(*base, *cand);
    if (paired && !paired_still_confirmable(base->round_medians_us, cand->round_medians_us, rule))
      return false;
    if (!paired && range_rule && !still_confirmable(base->time_us, cand->time_us)) return false;
  }
  return true;
}

bool final_interval_is_the_range(std::size_t rounds) {
  const RankInterval ci = median_ci_ranks(rounds);
  return rounds > 0 && ci.low == 0 && ci.high == rounds - 1;
}

}  // namespace

std::vector<Finalists> confirmable_finalists(const std::vector<Finalists>& finalists,
                                             std::vector<CaseResult> folded, std::size_t rounds,
                                             const DecisionRule& rule) {
  const bool any_paired = std::any_of(folded.begin(), folded.end(),
                                      [](const CaseResult& c) { return !c.round_medians_us.empty(); });
  const bool range_rule = final_interval_is_the_range(rounds);
  if (!any_paired && !range_rule) return finalists;
  ResultsDocument doc;
  doc.cases = std::move(folded);
  const CaseIndex index(doc);
  std::vector<Finalists> out;
  for (const Finalists& f : finalists) {
    Finalists kept{f.key, {}};
    for (const std::string& name : f.settings)
      if (confirmable_at(index, name, f.key, rule, range_rule)) kept.settings.push_back(name);
    if (!kept.settings.empty()) out.push_back(std::move(kept));
  }
  return out;
}

}  // namespace commtune
