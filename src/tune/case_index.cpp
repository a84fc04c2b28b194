#include "tune/case_index.hpp"

#include <algorithm>

#include "plan/sizes.hpp"

namespace commtune {
namespace {

std::string failure_reason(const CaseResult& r) {
  std::string text = std::string(name_of(r.status)) + " at " + std::string(name_of(r.spec.collective)) + " " +
                     format_size(r.spec.bytes) + " " + std::string(name_of(r.spec.placement));
  return r.reason.empty() ? text : text + " (" + r.reason + ")";
}

}  // namespace

SizeKey key_of(const Case& c) { return SizeKey{c.collective, c.bytes, c.group.name()}; }

const CaseResult* case_in_placement(const std::vector<const CaseResult*>& cases, Placement p) {
  for (const CaseResult* c : cases)
    if (c->spec.placement == p) return c;
  return nullptr;
}

CaseIndex::CaseIndex(const ResultsDocument& results) {
  for (const auto& r : results.cases) {
    cases_[{r.setting, key_of(r.spec)}].push_back(&r);
    if (std::find(setting_order_.begin(), setting_order_.end(), r.setting) == setting_order_.end())
      setting_order_.push_back(r.setting);
    if (r.status != CaseStatus::Ok && !disqualified_.count(r.setting))
      disqualified_[r.setting] = failure_reason(r);
    nranks_ = std::max(nranks_, r.nranks);
  }
}

const std::vector<const CaseResult*>& CaseIndex::cases(const std::string& setting, const SizeKey& key) const {
  static const std::vector<const CaseResult*> kNone;
  const auto it = cases_.find({setting, key});
  return it == cases_.end() ? kNone : it->second;
}

std::vector<SizeKey> CaseIndex::default_sizes() const {
  std::vector<SizeKey> keys;
  for (const auto& [id, results] : cases_)
    if (id.first == kDefaultSettingName &&
        std::all_of(results.begin(), results.end(),
                    [](const CaseResult* r) { return r->status == CaseStatus::Ok; }))
      keys.push_back(id.second);
  return keys;
}

std::vector<std::string> CaseIndex::candidates(const SizeKey& key) const {
  std::vector<std::string> names;
  for (const auto& name : setting_order_)
    if (name != kDefaultSettingName && cases_.count({name, key})) names.push_back(name);
  return names;
}

}  // namespace commtune
