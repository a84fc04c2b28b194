#include "launch/nccl_doctor_maps.hpp"

#include <algorithm>
#include <iostream>

#include "control/typed_messages.hpp"
#include "host/host_facts.hpp"
#include "launch/gather_ceiling.hpp"
#include "pairwise/pair_matrix.hpp"

namespace commtune {
namespace {

// The map's messages: as the MPI host backend's map, shorter with --quick.
PairwiseRequest map_shape(bool quick) {
  if (!quick) return PairwiseRequest{};
  return PairwiseRequest{
      .peer = -1, .bytes = 256u << 10, .samples = 5, .exchanges = 4, .latency_exchanges = 10};
}

// Where one rank sits, as it tells rank 0; and one node's ranks, as rank 0 tells every rank.
struct RankSeat {
  int node = 0, local_rank = 0, rank = 0;
  std::string host;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankSeat, node, local_rank, rank, host)
struct NodeRanks {
  std::string host;
  std::vector<int> ranks;  // in local rank order
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NodeRanks, host, ranks)

std::vector<NodeRanks> nodes_of(const std::vector<RankSeat>& seats, int nnodes) {
  std::vector<std::vector<std::pair<int, int>>> by_node(static_cast<std::size_t>(nnodes));
  std::vector<NodeRanks> nodes(static_cast<std::size_t>(nnodes));
  for (const RankSeat& seat : seats) {
    by_node.at(static_cast<std::size_t>(seat.node)).push_back({seat.local_rank, seat.rank});
    if (seat.local_rank == 0) nodes.at(static_cast<std::size_t>(seat.node)).host = seat.host;
  }
  for (std::size_t n = 0; n < by_node.size(); ++n) {
    std::sort(by_node[n].begin(), by_node[n].end());
    for (const auto& [local, rank] : by_node[n]) nodes[n].ranks.push_back(rank);
  }
  return nodes;
}

}  // namespace

// Without a launcher: every worker of this supervisor is a member (the GPUs of this node).
NcclPairwisePlan local_plan(const SupervisorLayout& layout, bool quick) {
  std::vector<std::string> names;
  for (const int rank : layout.ranks) names.push_back("rank " + std::to_string(rank));
  return single_map_plan(names, "rank", layout.ranks, layout.devices, map_shape(quick));
}

JobNodes job_nodes(ControlPlane& control) {
  const NodeLocality here = control.locality();
  const std::vector<RankSeat> seats =
      gather_values(control, RankSeat{here.node, here.local_rank, control.rank(), host_name()});
  const std::vector<NodeRanks> agreed =
      broadcast_value(control, control.rank() == 0 ? nodes_of(seats, here.nnodes) : std::vector<NodeRanks>{});
  JobNodes out;
  for (const NodeRanks& n : agreed) {
    out.hosts.push_back(n.host);
    out.ranks.push_back(n.ranks);
  }
  return out;
}

// Under a launcher: every rank on one node; with several nodes, the first rank of each node (its
// member index is its node), named by its host.
NcclPairwisePlan launched_plan(ControlPlane& control, const JobNodes& nodes, int device, bool quick) {
  const NodeLocality here = control.locality();
  const bool one_node = nodes.hosts.size() == 1;
  std::vector<std::string> names;
  if (one_node)
    for (const int rank : nodes.ranks.front()) names.push_back("rank " + std::to_string(rank));
  else
    names = nodes.hosts;
  std::vector<int> members, devices;
  if (one_node || here.local_rank == 0)
    members = {one_node ? here.local_rank : here.node}, devices = {device};
  return single_map_plan(names, one_node ? "rank" : "node", members, devices, map_shape(quick));
}

// With several nodes: the GPUs inside each node, one map per node of 2 or more ranks, all nodes at
// once (one communicator each). Members are named by their job rank.
NcclPairwisePlan node_gpus_plan(ControlPlane& control, const JobNodes& nodes, int device, bool quick) {
  const NodeLocality here = control.locality();
  NcclPairwisePlan plan;
  plan.unit = "rank";
  plan.shape = map_shape(quick);
  for (const auto& ranks : nodes.ranks) {
    std::vector<std::string> names;
    for (const int rank : ranks) names.push_back("rank " + std::to_string(rank));
    plan.groups.push_back(names);
  }
  plan.my_group = here.node;
  if (nodes.ranks.at(static_cast<std::size_t>(here.node)).size() >= 2) {
    plan.my_members = {here.local_rank};
    plan.my_devices = {device};
    plan.my_ranks = {control.rank()};
  }
  return plan;
}

// Whether any node of a multi-node job has GPUs to map among themselves.
bool has_node_gpu_maps(const JobNodes& nodes) {
  return nodes.hosts.size() > 1 && std::any_of(nodes.ranks.begin(), nodes.ranks.end(),
                                               [](const std::vector<int>& r) { return r.size() >= 2; });
}

std::optional<NodeGpuMeasurement> measure_node_gpus(ControlPlane& control, const WorkerCommand& command,
                                                    const DoctorLaunch& launch, const DoctorMaps& maps,
                                                    const AgreedDeviceFacts& facts) {
  if (!maps.node_gpus) return std::nullopt;
  NcclPairwiseMap measured = measure_nccl_pairwise(control, command, launch.nccl, *maps.node_gpus);
  NodeGpuMeasurement out{.failure = measured.failure};
  if (control.rank() != 0) return out;
  for (std::size_t g = 0; g < measured.matrices.size(); ++g)  // a node of one rank has no map
    if (measured.matrices[g].size() >= 2)
      out.nodes.push_back({maps.hosts.at(g), std::move(measured.matrices[g])});
  PathFacts inside =
      nccl_path_facts(facts.provenance, launch.nccl.emulate_nodes);  // one node: no NIC in the path
  inside.nodes = 1;
  out.ceiling = ceiling_from_facts(inside);
  for (const NodeGpuMatrix& node : out.nodes) {
    std::cout << "# commtune doctor: the GPUs of node " << node.host << ", pairwise map of "
              << node.matrix.size() << " ranks through NCCL workers (all nodes at once)\n";
    write_matrix(node.matrix, std::cout);
  }
  return out;
}

void confirm_node_gpus(ControlPlane& control, const WorkerCommand& command, const DoctorLaunch& launch,
                       const DoctorMaps& maps, std::optional<NodeGpuMeasurement>& node_gpus) {
  if (!maps.node_gpus) return;
  std::vector<PairMatrix> groups;  // rank 0: every group's map in the plan's order (none: a node of one rank)
  if (control.rank() == 0 && node_gpus && !node_gpus->failure)
    for (const std::string& host : maps.hosts) {
      const auto node = std::find_if(node_gpus->nodes.begin(), node_gpus->nodes.end(),
                                     [&](const NodeGpuMatrix& n) { return n.host == host; });
      groups.push_back(node != node_gpus->nodes.end() ? node->matrix : PairMatrix{});
    }
  const auto found = confirmed_slow_links(control, groups, [&](const GroupRounds& rounds) {
    NcclPairwisePlan again = *maps.node_gpus;
    again.rounds = rounds;
    NcclPairwiseMap measured = measure_nccl_pairwise(control, command, launch.nccl, again);
    std::vector<std::optional<PairMatrix>> out(rounds.size());
    for (std::size_t g = 0; g < measured.matrices.size() && g < out.size() && !measured.failure; ++g)
      out[g] = std::move(measured.matrices[g]);
    return out;
  });
  for (std::size_t g = 0; g < found.size(); ++g)
    for (const Finding& f : found[g]) node_gpus->confirmed.push_back(in_node(f, maps.hosts.at(g)));
}

}  // namespace commtune
