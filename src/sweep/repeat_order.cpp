#include "sweep/repeat_order.hpp"

#include <algorithm>

namespace commtune {
namespace {

bool same_group(const Case& a, const Case& b) {
  return a.setting_index == b.setting_index && a.collective == b.collective && a.bytes == b.bytes;
}

std::vector<std::size_t> group_starts(const std::vector<Case>& cases) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (i == 0 || !same_group(cases[i - 1], cases[i])) starts.push_back(i);
  return starts;
}

}  // namespace

Plan rotated_plan(const Plan& plan, std::size_t run, std::size_t runs) {
  Plan out = plan;
  const std::vector<std::size_t> starts = group_starts(plan.cases);
  if (starts.empty() || runs < 2) return out;
  const std::size_t first = starts[(run % runs) * starts.size() / runs];
  std::rotate(out.cases.begin(), out.cases.begin() + static_cast<std::ptrdiff_t>(first), out.cases.end());
  return out;
}

}  // namespace commtune
