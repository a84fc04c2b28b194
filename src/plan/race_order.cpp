#include "plan/race_order.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace commtune {

bool side_by_side_fits(const std::vector<Case>& cases, std::size_t kept_open) {
  std::set<std::size_t> settings;
  for (const Case& c : cases) settings.insert(c.setting_index);
  return settings.size() > 1 && settings.size() <= kept_open;
}

void order_round(std::vector<Case>& cases, std::size_t round, bool side_by_side) {
  const bool reversed = round % 2 == 1;
  const auto setting_before = [reversed](const Case& a, const Case& b) {
    return reversed ? a.setting_index > b.setting_index : a.setting_index < b.setting_index;
  };
  if (!side_by_side) {
    std::stable_sort(cases.begin(), cases.end(), setting_before);
    return;
  }
  // Each (collective, size) where it first appears in the plan.
  std::map<std::pair<Collective, std::uint64_t>, std::size_t> position;
  for (const Case& c : cases) position.emplace(std::pair{c.collective, c.bytes}, position.size());
  std::stable_sort(cases.begin(), cases.end(), [&](const Case& a, const Case& b) {
    const std::size_t pa = position.at({a.collective, a.bytes}), pb = position.at({b.collective, b.bytes});
    if (pa != pb) return pa < pb;
    return setting_before(a, b);
  });
}

}  // namespace commtune
