#pragma once
// The doctor's system checks: pure readers over a SystemTree plus the facts a tree cannot hold
// (limits of this process, the environment, what the GPU driver says), each returning findings.
// No collective runs here. run_system_checks runs them all in a fixed order.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/finding.hpp"
#include "doctor/pci_devices.hpp"
#include "doctor/system_tree.hpp"

namespace commtune {

// What the checks need besides the tree; on a live machine doctor/live_facts fills it.
struct SystemFacts {
  std::optional<std::uint64_t> memlock_bytes;  // RLIMIT_MEMLOCK soft limit; nothing: unlimited
  // `nvidia-smi --query-gpu=pci.bus_id,compute_mode --format=csv,noheader`; nothing: not known
  std::optional<std::string> compute_modes;
  std::map<std::string, std::string> environment;  // NCCL_*, OMPI_* ... of this process
  int local_ranks = 1;                             // ranks of this job on this node
  int cores = 0;                                   // hardware cores of this node; 0: unknown
  std::optional<bool> mpi_yield_when_idle;         // Open MPI's value as it runs; nothing: not known
};

// An InfiniBand / RoCE port from sys/class/infiniband/DEV/ports/N.
struct RdmaPort {
  std::string device, port;
  std::string state;                   // "4: ACTIVE"
  std::string phys_state;              // "5: LinkUp"
  double rate_gbps = 0;                // from "400 Gb/sec (4X NDR)"
  std::string link_layer;              // InfiniBand, Ethernet
  std::optional<std::string> pci_bdf;  // the PCI function behind it
};
std::vector<RdmaPort> read_rdma_ports(const SystemTree& tree);

std::vector<Finding> check_pcie_links(const std::vector<PciDevice>& devices);
// ACS control bits that redirect or block peer traffic, from a bridge's config space bytes
// (the ACS extended capability); nothing when the extended space was not readable.
std::optional<std::uint16_t> acs_control(const std::string& config_space);
std::vector<Finding> check_acs(const SystemTree& tree, const std::vector<PciDevice>& devices);
std::vector<Finding> check_iommu(const SystemTree& tree, const std::vector<PciDevice>& devices);
std::vector<Finding> check_gpudirect(const SystemTree& tree, const std::vector<PciDevice>& devices,
                                     const std::vector<RdmaPort>& ports);
std::vector<Finding> check_nic_ports(const SystemTree& tree, const std::vector<RdmaPort>& ports);
std::vector<Finding> check_numa_affinity(const std::vector<PciDevice>& devices,
                                         const std::vector<RdmaPort>& ports);
std::vector<Finding> check_container_limits(const SystemTree& tree, const SystemFacts& facts);
std::vector<Finding> check_compute_mode(const SystemFacts& facts);
std::vector<Finding> check_environment(const SystemFacts& facts, const std::vector<RdmaPort>& ports);

std::vector<Finding> run_system_checks(const SystemTree& tree, const SystemFacts& facts);

}  // namespace commtune
