#pragma once
// Which ranks share each communicator of a scanned NCCL log, in --groups terms.
// With every rank's log (and INIT lines): each process's global rank is its rank in the world
// communicator (the first one with as many ranks as the job), a communicator's members are the
// global ranks of the processes that initialised it (one commId, or one split of one parent), its
// groups of one size that do not overlap make one partition of the job, and the partition is
// matched against world, intra-node (one group per host), inter-node (one group per local rank)
// and nccl-tests' splits (DIV, MOD, AND, OR). A partition none of them gives is an InputError.
// With fewer logs the shape is inferred from one process's view and the workload's notes say so.
#include <string>
#include <vector>

#include "plan/groups.hpp"
#include "workload/nccl_log_scan.hpp"

namespace commtune {

struct CommShape {
  std::size_t comm = 0;  // the communicator whose calls stand for the partition (index in scan.comms)
  GroupSpec group;
  int group_ranks = 0;
};

struct NcclShapes {
  int world_ranks = 0;
  std::vector<CommShape> shapes;  // one per partition, in order of their first communicator
  std::vector<std::string> notes;
};

// `world_hint`: the job's ranks when known (0: the largest communicator's).
NcclShapes find_shapes(const NcclScan& scan, int world_hint);

// The spec whose groups over `node_of_rank` are `group_of_rank`'s (ranks with one value form one
// group), if one is.
std::optional<GroupSpec> spec_of_partition(const std::vector<int>& group_of_rank,
                                           const std::vector<int>& node_of_rank);

}  // namespace commtune
