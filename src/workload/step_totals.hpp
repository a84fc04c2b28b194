#pragma once
// What one step of a workload moves, per communicator group: how many collectives it runs there and
// their bytes (nccl-tests' sizes times the counts). `commtune workload` prints it.
#include <cstdint>
#include <vector>

#include "workload/workload.hpp"

namespace commtune {

struct GroupTotal {
  GroupSpec group;
  int group_ranks = 0;
  std::uint64_t collectives = 0;  // calls a step, counts included
  double bytes = 0;               // a step's bytes on that group (a double: counts x sizes may pass 2^64)
};

// One total per (group, group_ranks), in the order the step first uses each.
std::vector<GroupTotal> totals_per_group(const Workload& workload);

}  // namespace commtune
