#pragma once
// The NCCL doctor's pairwise maps: which members each map has (the ranks of one node, the nodes,
// and with several nodes the GPUs inside each node, one map per node, all at once), and the node
// maps measured, printed and their slow GPUs and pairs re-measured before they are named.
#include <optional>
#include <string>
#include <vector>

#include "backend/nccl/supervisor/device_setup.hpp"
#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/nccl_pairwise.hpp"
#include "control/control_plane.hpp"
#include "launch/doctor_launch.hpp"
#include "launch/doctor_parts.hpp"

namespace commtune {

// The job's ranks by node, agreed: each node's host and its ranks in local-rank order.
struct JobNodes {
  std::vector<std::string> hosts;
  std::vector<std::vector<int>> ranks;
};
JobNodes job_nodes(ControlPlane& control);

// Without a launcher: every worker of this supervisor is a member (the GPUs of this node).
NcclPairwisePlan local_plan(const SupervisorLayout& layout, bool quick);

// Under a launcher: every rank on one node; with several nodes, the first rank of each node (its
// member index is its node), named by its host.
NcclPairwisePlan launched_plan(ControlPlane& control, const JobNodes& nodes, int device, bool quick);

// With several nodes: the GPUs inside each node, one map per node of 2 or more ranks, all nodes at
// once (one communicator each). Members are named by their job rank.
NcclPairwisePlan node_gpus_plan(ControlPlane& control, const JobNodes& nodes, int device, bool quick);

// Whether any node of a multi-node job has GPUs to map among themselves.
bool has_node_gpu_maps(const JobNodes& nodes);

// The doctor's maps: the main one (ranks of one node, or the nodes), and with several nodes the
// GPUs inside each node.
struct DoctorMaps {
  NcclPairwisePlan main;
  std::optional<NcclPairwisePlan> node_gpus;
  std::vector<std::string> hosts;  // each node's host, in the node maps' order
};

// Every node's GPU map at once; rank 0 prints each and gets them with the ceiling inside a node.
std::optional<NodeGpuMeasurement> measure_node_gpus(ControlPlane& control, const WorkerCommand& command,
                                                    const DoctorLaunch& launch, const DoctorMaps& maps,
                                                    const AgreedDeviceFacts& facts);

// Each node's slow GPUs and pairs, re-measured as the main map's are (every node's at once), into
// `node_gpus->confirmed` on rank 0.
void confirm_node_gpus(ControlPlane& control, const WorkerCommand& command, const DoctorLaunch& launch,
                       const DoctorMaps& maps, std::optional<NodeGpuMeasurement>& node_gpus);

}  // namespace commtune
