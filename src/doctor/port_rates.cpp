#include "doctor/port_rates.hpp"

#include "doctor/system_checks.hpp"

namespace commtune {

std::vector<double> active_port_gbits(const SystemTree& tree) {
  std::vector<double> rates;
  for (const auto& p : read_rdma_ports(tree))
    if (p.state.find("ACTIVE") != std::string::npos && p.rate_gbps > 0) rates.push_back(p.rate_gbps);
  if (!rates.empty()) return rates;
  for (const auto& name : tree.names("sys/class/net")) {
    const std::string dir = "sys/class/net/" + name;
    if (name == "lo" || tree.line(dir + "/operstate").value_or("") != "up") continue;
    const double mbps = leading_number(tree.line(dir + "/speed").value_or("")).value_or(-1);
    if (mbps > 0) rates.push_back(mbps / 1000);
  }
  return rates;
}

}  // namespace commtune
