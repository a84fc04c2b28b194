#pragma once
// Which link limits a sweep, and its ceiling, from facts about the job: the backend, how many
// nodes, the GPU and its NVLink / PCIe links, the NICs of each node, and for the host backend a
// measured memory copy bandwidth. Pure: the facts are read elsewhere (doctor/live_facts) and
// measured elsewhere (host/memory_bandwidth).
// The line rates of those links, per direction, in GB/s (10^9 bytes/s), and what published
// measurements reach on them. Sources: docs/ceilings.md (NVIDIA specifications, nccl-tests and
// NCCL issue threads).
#include <optional>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
#include "ceiling/ceiling.hpp"

namespace commtune {

// NVLink generation of a GPU from its marketing name ("NVIDIA H200" -> 4); nothing when unknown.
std::optional<int> nvlink_generation(const std::string& gpu_name);
// Per link, per direction: NVLink 1: 20, 2-4: 25, 5: 50 GB/s.
double nvlink_link_gbps(int generation);

// Per lane, per direction, after line encoding: Gen1 0.25 ... Gen5 3.938, Gen6 7.877 GB/s.
double pcie_lane_gbps(int generation);

// A NIC's signalling rate in Gb/s as GB/s.
inline double nic_gbps(double gigabits) { return gigabits / 8.0; }

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
