#pragma once
// The pairwise map on the NCCL backend: one worker per member (a GPU of one node, or the first GPU
// of each node), one communicator over the members, and the round-robin schedule driven through
// the workers under the watchdog: each round, every worker is told its peer (or none), the pairs
// exchange at once (ncclSend + ncclRecv in one group, both directions), and every supervisor
// agrees on the round's outcome before the next. A worker that hangs, dies or fails ends the map
// with the agreed reason; the workers are killed, and nothing waits forever.
#include <optional>
#include <string>
#include <vector>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "control/control_plane.hpp"
#include "pairwise/pair_matrix.hpp"

namespace commtune {

struct NcclPairwisePlan {
  std::vector<std::string> names;  // every member's name, in member order (the map's rows)
  std::string unit = "rank";       // "node" or "rank"
  std::vector<int> my_members;     // the members this supervisor's workers are (none: it only agrees)
  std::vector<int> my_devices;     // their CUDA devices
  PairwiseRequest shape;           // bytes, samples, exchanges per sample (the peer is set per round)
};

struct NcclPairwiseMap {
  std::optional<PairMatrix> matrix;    // control rank 0, when every round was measured
  std::optional<std::string> failure;  // every rank: why the map ended early (rank, step, cause)
};

// Every supervisor calls it; member 0 must be a worker of control rank 0 (it makes the unique id).
NcclPairwiseMap measure_nccl_pairwise(ControlPlane& control, const WorkerCommand& command, const NcclRunOptions& run,
                                      const NcclPairwisePlan& plan);

// One round's requests for this supervisor's workers: each worker's peer in `round`, or -1.
std::vector<std::string> round_requests(const std::vector<std::pair<int, int>>& round, const std::vector<int>& my_members,
                                        const PairwiseRequest& shape);

}  // namespace commtune
