#pragma once
// A plan: the settings and the list of cases a sweep will measure, in run order (setting,
// collective, size, placement), with any warnings the planner had (sizes capped to memory).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "plan/groups.hpp"
#include "plan/setting.hpp"
#include "plan/sweep_options.hpp"

namespace commtune {

struct Case {
  std::size_t index = 0;          // position in the plan
  std::size_t setting_index = 0;  // into Plan::settings
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;  // nccl-tests size: the largest buffer (all-gather: total)
  std::size_t count = 0;    // elements per call (nccl-tests' count column)
  DataType dtype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;
  int root = 0;
  Placement placement = Placement::OutOfPlace;
  GroupSpec group{};  // the communicators it runs on (--groups): every group at once
};

struct Plan {
  SweepOptions options;
  std::vector<Setting> settings;
  std::vector<Case> cases;
  int nranks = 1;
  std::vector<std::string> warnings;
  std::vector<GroupLayout> groups;  // one per spec of options.groups, in its order

  // The layout of `spec`; throws std::out_of_range for a spec the plan does not have.
  const GroupLayout& layout_of(const GroupSpec& spec) const;
};

struct PlanLimits {
  int nranks = 1;
  int ranks_per_host = 1;
  std::uint64_t memory_bytes_per_host = 0;  // 0: no limit known
  std::uint64_t max_count = 0;              // most elements one call takes (MPI: INT_MAX); 0: none
  // The node of each rank, numbered from 0 in order of their first rank (plan/groups.hpp); empty:
  // ranks_per_host consecutive ranks a node.
  std::vector<int> node_of_rank{};
};

// The node of every rank: limits.node_of_rank, or ranks_per_host consecutive ranks a node.
std::vector<int> node_of_each_rank(const PlanLimits& limits);

// Builds the case list. Sizes are rounded down to whole elements per rank; sizes whose buffers
// (all local ranks together) would not fit in half the host's memory, or whose element count the
// backend cannot pass in one call, are dropped with a warning.
Plan make_plan(const SweepOptions& options, const std::vector<Setting>& settings, const PlanLimits& limits);

}  // namespace commtune
