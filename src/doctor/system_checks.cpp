#include "doctor/system_checks.hpp"

namespace commtune {

std::vector<Finding> run_system_checks(const SystemTree& tree, const SystemFacts& facts) {
  const std::vector<PciDevice> devices = read_pci_devices(tree);
  const std::vector<RdmaPort> ports = read_rdma_ports(tree);
  std::vector<Finding> out;
  const auto add = [&](std::vector<Finding> more) { out.insert(out.end(), more.begin(), more.end()); };
  add(check_pcie_links(devices));
  add(check_acs(tree, devices));
  add(check_iommu(tree, devices));
  add(check_gpudirect(tree, devices, ports));
  add(check_nic_ports(tree, ports));
  add(check_numa_affinity(devices, ports));
  add(check_container_limits(tree, facts));
  add(check_compute_mode(facts));
  add(check_environment(facts, ports));
  return out;
}

}  // namespace commtune
