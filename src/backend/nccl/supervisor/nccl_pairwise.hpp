#pragma once
// The pairwise map on the NCCL backend: one worker per member, one communicator per group of
// members, and the round-robin schedule driven through the workers under the watchdog. A group is
// one map: the GPUs of one node, or the first GPU of each node. Several groups (the GPUs inside
// each node of a multi-node job) run at once, each on its own communicator: each round, every
// worker is told its peer in its group's schedule (or none), the pairs of every group exchange at
// once (ncclSend + ncclRecv in one group call, both directions), and every supervisor agrees on
// the round's outcome before the next. A worker that hangs, dies or fails ends the map with the
// agreed reason; the workers are killed, and nothing waits forever.
#include <optional>
#include <string>
#include <vector>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "control/control_plane.hpp"
#include "pairwise/pair_matrix.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {

struct NcclPairwisePlan {
  // Each group's member names, in member order (one map each, its rows). Every supervisor knows
  // every group's size; the names are shown by rank 0. A group of fewer than 2 members has no map.
  std::vector<std::vector<std::string>> groups;
  std::string unit = "rank";    // "node" or "rank"
  int my_group = 0;             // the group of this supervisor's workers
  std::vector<int> my_members;  // their member indices in that group (none: this supervisor only agrees)
  std::vector<int> my_devices;  // their CUDA devices
  std::vector<int>
      my_ranks;           // their job ranks, for messages ("rank 5 worker ..."); empty: the member indices
  PairwiseRequest shape;  // bytes, samples, exchanges per sample (the peer is set per round)
  // Per group, in the groups' order: where set, those rounds instead of the group's round robin (a
  // re-measure of chosen pairs; no rounds: the group measures nothing). A group past the end, or
  // std::nullopt, runs its round robin.
  std::vector<std::optional<std::vector<Round>>> rounds;
};

// A plan of one group: every member's name (the map's rows) and this supervisor's members.
NcclPairwisePlan single_map_plan(std::vector<std::string> names, std::string unit,
                                 std::vector<int> my_members, std::vector<int> my_devices,
                                 const PairwiseRequest& shape);

struct NcclPairwiseMap {
  // Control rank 0, when every round was measured: one per group, in the plan's order (a group of
  // fewer than 2 members has no entries).
  std::vector<PairMatrix> matrices;
  std::optional<std::string> failure;  // every rank: why the map ended early (rank, step, cause)

  const PairMatrix* first() const { return matrices.empty() ? nullptr : &matrices.front(); }
  std::optional<PairMatrix> first_matrix() const {
    return matrices.empty() ? std::nullopt : std::optional<PairMatrix>(matrices.front());
  }
};

// Every supervisor calls it, with the same groups; in each group, the supervisor whose workers
// include member 0 makes that group's unique id.
NcclPairwiseMap measure_nccl_pairwise(ControlPlane& control, const WorkerCommand& command,
                                      const NcclRunOptions& run, const NcclPairwisePlan& plan);

// One round's requests for this supervisor's workers: each worker's peer in `round`, or -1.
std::vector<std::string> round_requests(const std::vector<std::pair<int, int>>& round,
                                        const std::vector<int>& my_members, const PairwiseRequest& shape);

}  // namespace commtune
