#include <filesystem>

#include "doctor/system_checks.hpp"

namespace commtune {

// sys/class/infiniband/DEV/device links to the PCI function; its name is the bdf.
std::vector<RdmaPort> read_rdma_ports(const SystemTree& tree) {
  std::vector<RdmaPort> out;
  for (const auto& device : tree.names("sys/class/infiniband")) {
    const std::string base = "sys/class/infiniband/" + device;
    std::optional<std::string> bdf;
    std::error_code error;
    const auto target = std::filesystem::canonical(tree.at(base + "/device"), error);
    if (!error) bdf = target.filename().string();
    for (const auto& port : tree.names(base + "/ports")) {
      const std::string dir = base + "/ports/" + port;
      RdmaPort p{device,
                 port,
                 tree.line(dir + "/state").value_or(""),
                 tree.line(dir + "/phys_state").value_or(""),
                 leading_number(tree.line(dir + "/rate").value_or("")).value_or(0),
                 tree.line(dir + "/link_layer").value_or(""),
                 bdf};
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace commtune
