#include <algorithm>
#include <map>

#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

std::string rate_text(double gbps) { return std::to_string(static_cast<long long>(gbps)) + " Gb/s"; }

void check_rdma(const std::vector<RdmaPort>& ports, std::vector<Finding>& out) {
  std::map<std::string, double> fastest;  // per link layer
  for (const auto& p : ports)
    if (p.state.find("ACTIVE") != std::string::npos)
      fastest[p.link_layer] = std::max(fastest[p.link_layer], p.rate_gbps);
  for (const auto& p : ports) {
    const std::string subject = p.device + " port " + p.port;
    const std::string where = "sys/class/infiniband/" + p.device + "/ports/" + p.port;
    if (p.state.find("ACTIVE") == std::string::npos) {
      out.push_back(Finding{"nic-port-down", Severity::Critical, subject,
                            "state '" + p.state + "', phys_state '" + p.phys_state + "' (" + where + ")",
                            "check the cable and the switch port (ibstat, ibdiagnet); a subnet manager must "
                            "run for InfiniBand"});
    } else if (p.rate_gbps + 0.5 < fastest[p.link_layer]) {
      out.push_back(
          Finding{"nic-port-slow", Severity::Warning, subject,
                  "rate " + rate_text(p.rate_gbps) + " while other " + p.link_layer + " ports run at " +
                      rate_text(fastest[p.link_layer]) + " (" + where + "/rate)",
                  "check the cable (a lower-rated or damaged one trains down) and the switch port's speed"});
    }
  }
}

// Physical Ethernet interfaces (with a device; not IPoIB, type 32): down, or slower than the
// fastest one of the node.
void check_ethernet(const SystemTree& tree, std::vector<Finding>& out) {
  struct Port {
    std::string name, operstate;
    double mbps;
  };
  std::vector<Port> ports;
  double fastest = 0;
  for (const auto& name : tree.names("sys/class/net")) {
    const std::string dir = "sys/class/net/" + name;
    if (!tree.exists(dir + "/device") || tree.line(dir + "/type").value_or("1") == "32") continue;
    Port p{name, tree.line(dir + "/operstate").value_or(""),
           leading_number(tree.line(dir + "/speed").value_or("")).value_or(-1)};
    if (p.operstate == "up") fastest = std::max(fastest, p.mbps);
    ports.push_back(p);
  }
  for (const auto& p : ports) {
    const std::string where = "sys/class/net/" + p.name;
    if (p.operstate == "down")
      out.push_back(
          Finding{"net-port-down", Severity::Info, p.name, "operstate down (" + where + "/operstate)",
                  "if this port should carry traffic: check the cable and the switch; otherwise ignore"});
    else if (p.operstate == "up" && p.mbps > 0 && p.mbps < fastest)
      out.push_back(Finding{"net-port-slow", Severity::Warning, p.name,
                            "speed " + rate_text(p.mbps / 1000) + " while the fastest port runs at " +
                                rate_text(fastest / 1000) + " (" + where + "/speed)",
                            "check the cable, the transceiver and the switch port's speed (ethtool)"});
  }
}

}  // namespace

std::vector<Finding> check_nic_ports(const SystemTree& tree, const std::vector<RdmaPort>& ports) {
  std::vector<Finding> out;
  check_rdma(ports, out);
  check_ethernet(tree, out);
  return out;
}

}  // namespace commtune
