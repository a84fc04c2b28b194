#include "workload/step_totals.hpp"

#include <algorithm>

namespace commtune {

std::vector<GroupTotal> totals_per_group(const Workload& workload) {
  std::vector<GroupTotal> totals;
  for (const WorkloadCollective& c : workload.collectives) {
    auto it = std::find_if(totals.begin(), totals.end(), [&](const GroupTotal& t) {
      return t.group == c.group && t.group_ranks == c.group_ranks;
    });
    if (it == totals.end())
      it = totals.insert(totals.end(), GroupTotal{.group = c.group, .group_ranks = c.group_ranks});
    it->collectives += c.count;
    it->bytes += static_cast<double>(c.bytes) * static_cast<double>(c.count);
  }
  return totals;
}

}  // namespace commtune
