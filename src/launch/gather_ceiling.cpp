#include "launch/gather_ceiling.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "control/typed_messages.hpp"
#include "doctor/pci_devices.hpp"
#include "doctor/port_rates.hpp"
#include "host/host_facts.hpp"
#include "host/launcher.hpp"
#include "host/memory_bandwidth.hpp"
#include "pairwise/mpi_pairwise.hpp"

namespace commtune {

std::optional<HostCopyBandwidth> measure_host_copy_if_first_on_node() {
  if (detect_launcher().local_rank.value_or(0) != 0) return std::nullopt;
  const CopyMeasurement m = measure_copy_bandwidth();
  return HostCopyBandwidth{m.gbps, m.method + " on the first process of each node; the slowest node"};
}

std::optional<HostCopyBandwidth> measure_host_copy_quietly(MPI_Comm world) {
  // The waiting ranks test the barrier every 5 ms: at 200 us three of them took a 4-rank sweep's
  // figure on the 2-core VM to 9.3 to 10.9 GB/s, at 5 ms 16.6 to 22.2 (docs/measurements.md, 2026-12-07).
  constexpr std::chrono::milliseconds kPoll{5};
  sleeping_barrier(world, kPoll);  // every rank past MPI_Init
  const std::optional<HostCopyBandwidth> copy = measure_host_copy_if_first_on_node();
  sleeping_barrier(world, kPoll);
  return copy;
}

std::optional<Ceiling> gather_ceiling(ControlPlane& control, PathFacts facts,
                                      const std::optional<HostCopyBandwidth>& copy) {
  nlohmann::json mine{{"host", host_name()}, {"ports", active_port_gbits(SystemTree("/"))}};
  if (copy) mine["copy_gbps"] = copy->gbps;
  const std::vector<nlohmann::json> all = gather_values(control, mine);
  if (control.rank() != 0) return std::nullopt;
  std::set<std::string> hosts;
  double slowest_copy = std::numeric_limits<double>::infinity();
  double slowest_network = std::numeric_limits<double>::infinity();
  for (const nlohmann::json& rank : all) {
    hosts.insert(rank.at("host").get<std::string>());
    if (rank.contains("copy_gbps")) slowest_copy = std::min(slowest_copy, rank.at("copy_gbps").get<double>());
    std::vector<double> ports = rank.at("ports").get<std::vector<double>>();
    double total = 0;
    for (double p : ports) total += p;
    if (!ports.empty() && total < slowest_network) {
      slowest_network = total;
      facts.nic_gbits = ports;
    }
  }
  facts.nodes = static_cast<int>(hosts.size());
  if (copy && slowest_copy < std::numeric_limits<double>::infinity())
    facts.host_copy = HostCopyBandwidth{slowest_copy, copy->method};
  return ceiling_from_facts(facts);
}

PathFacts nccl_path_facts(const nlohmann::json& nccl, bool emulated_nodes) {
  PathFacts facts;
  facts.backend = BackendKind::Nccl;
  facts.emulated_nodes = emulated_nodes;
  // Only rank 0 holds the agreed device facts; the other supervisors pass null.
  if (!nccl.is_object()) return facts;
  const nlohmann::json supervisors = nccl.value("supervisors", nlohmann::json::array());
  if (!supervisors.is_array() || supervisors.empty() || !supervisors.front().is_object()) return facts;
  const nlohmann::json& first = supervisors.front();
  const nlohmann::json devices =
      first.value("devices", nlohmann::json::object()).value("devices", nlohmann::json::array());
  if (devices.is_array() && !devices.empty() && devices.front().is_object()) {
    facts.gpu_name = devices.front().value("name", "");
    std::string bus = devices.front().value("pci_bus_id", "");
    std::transform(bus.begin(), bus.end(), bus.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (bus.size() > 12) bus = bus.substr(bus.size() - 12);
    for (const auto& d : read_pci_devices(SystemTree("/")))
      if (d.bdf == bus)
        facts.pcie_generation = pcie_generation(d.max.speed_gts), facts.pcie_width = d.max.width;
  }
  const nlohmann::json topology = first.value("gpu_topology", nlohmann::json::object());
  if (topology.contains("matrix") && topology["matrix"].is_string())
    facts.nvlinks = nvlinks_from_topology(topology["matrix"].get<std::string>());
  return facts;
}

}  // namespace commtune
