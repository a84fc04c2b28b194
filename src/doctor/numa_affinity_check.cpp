#include <map>
#include <set>

#include "doctor/system_checks.hpp"

namespace commtune {

// Every NUMA node that holds GPUs should hold an RDMA NIC: otherwise those GPUs' network traffic
// crosses the inter-socket link (and GPUDirect RDMA across it is slow or refused).
std::vector<Finding> check_numa_affinity(const std::vector<PciDevice>& devices,
                                         const std::vector<RdmaPort>& ports) {
  std::map<int, int> gpus_per_node;
  for (const auto& d : devices)
    if (is_gpu(d) && d.numa_node >= 0) ++gpus_per_node[d.numa_node];
  std::set<int> nic_nodes;
  for (const auto& p : ports)
    if (p.pci_bdf)
      if (const PciDevice* nic = find_device(devices, *p.pci_bdf); nic && nic->numa_node >= 0)
        nic_nodes.insert(nic->numa_node);
  if (nic_nodes.empty() || gpus_per_node.size() < 2) return {};
  std::vector<Finding> out;
  for (const auto& [node, gpus] : gpus_per_node) {
    if (nic_nodes.count(node)) continue;
    std::string nodes;
    for (int n : nic_nodes) nodes += (nodes.empty() ? "" : ",") + std::to_string(n);
    out.push_back(
        Finding{"numa-no-local-nic", Severity::Warning, "NUMA node " + std::to_string(node),
                std::to_string(gpus) + " GPU(s) on NUMA node " + std::to_string(node) +
                    " and no RDMA NIC there "
                    "(NICs on node(s) " +
                    nodes + "; numa_node of each PCI device)",
                "move a NIC to a slot of that socket, or expect those GPUs' inter-node traffic to cross the "
                "CPU interconnect (NCCL picks the nearest NIC; check NCCL_DEBUG=INFO's NET/IB lines)"});
  }
  return out;
}

}  // namespace commtune
