#pragma once
// Which link limits a sweep, and its ceiling, from facts about the job: the backend, how many
// nodes, the GPU and its NVLink / PCIe links, the NICs of each node, and for the host backend a
// measured memory copy bandwidth. Pure: the facts are read elsewhere (doctor/live_facts) and
// measured elsewhere (host/memory_bandwidth).
#include <optional>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
#include "ceiling/ceiling.hpp"

namespace commtune {

struct HostCopyBandwidth {
  double gbps = 0;     // bytes copied per second / 1e9
  std::string method;  // "memcpy of 64 MiB, median of 7, one thread on rank 0 of each node"
};

struct PathFacts {
  BackendKind backend = BackendKind::Mpi;
  int nodes = 1;
  bool emulated_nodes = false;  // NCCL --emulate-nodes: sockets inside one machine
  std::string gpu_name;         // "NVIDIA H200"; empty when no GPU
  int nvlinks = 0;              // NVLink links per GPU (from `nvidia-smi topo -m` NV#); 0: none seen
  int pcie_generation = 0, pcie_width = 0;  // the GPU's PCIe link (max)
  std::vector<double> nic_gbits;            // active RDMA (or Ethernet) ports of the slowest node, Gb/s each
  std::optional<HostCopyBandwidth> host_copy;
};

// Nothing when the facts do not name a path with a known rate.
std::optional<Ceiling> ceiling_from_facts(const PathFacts& facts);

// The NVLink count from `nvidia-smi topo -m` text: the largest "NV<n>" entry; 0 when none.
int nvlinks_from_topology(const std::string& matrix);

}  // namespace commtune
