#include "ceiling/path_facts.hpp"

#include <algorithm>
#include <numeric>
#include <regex>
#include <utility>

#include "core/text_format.hpp"

namespace commtune {
namespace {

// The published ranges (docs/ceilings.md has each with its thread).
constexpr const char* kNvlinkSource =
    "NCCL ring all-reduce reaches ~370 of 450 GB/s on NVLink 4, nccl-tests #212";
constexpr const char* kPcieSource = "NCCL's own model uses ~48 of 63 GB/s for Gen5 x16 P2P";
constexpr const char* kNicSource =
    "a 400 Gb/s NDR port gives 48-49 GB/s (nccl-tests #267), 200 Gb/s HDR ~24 GB/s (#119)";

std::optional<Ceiling> network_ceiling(const PathFacts& f) {
  if (f.nic_gbits.empty()) return std::nullopt;
  const double total = std::accumulate(f.nic_gbits.begin(), f.nic_gbits.end(), 0.0);
  const double fastest = *std::max_element(f.nic_gbits.begin(), f.nic_gbits.end());
  Ceiling c;
  if (traits_of(f.backend).ceiling == CeilingKind::GpuPath) {  // NCCL stripes over every NIC
    c.gbps = nic_gbps(total);
    c.path = printf_string("%zu x %.0f Gb/s NIC per node", f.nic_gbits.size(), fastest);
    c.basis = "NICs per node x line rate, from sys/class/infiniband/*/ports/*/rate";
    c.expected_low = 0.96, c.expected_high = 0.98, c.expected_source = kNicSource;
  } else {
    // Open MPI's TCP transport: count the fastest port only (it stripes poorly over several).
    c.gbps = nic_gbps(fastest);
    c.path = printf_string("%.0f Gb/s network port", fastest);
    c.basis = "the node's fastest active port, from sys/class/net/*/speed or infiniband rate";
  }
  return c;
}

std::optional<Ceiling> gpu_ceiling(const PathFacts& f) {
  const auto generation = nvlink_generation(f.gpu_name);
  if (f.nvlinks > 0 && generation) {
    Ceiling c;
    c.gbps = f.nvlinks * nvlink_link_gbps(*generation);
    c.path = printf_string("NVLink %d x%d", *generation, f.nvlinks);
    c.basis = printf_string("%d links x %.0f GB/s per direction (NVLink %d), links from nvidia-smi topo -m",
                            f.nvlinks, nvlink_link_gbps(*generation), *generation);
    c.expected_low = 0.78, c.expected_high = 0.85, c.expected_source = kNvlinkSource;
    return c;
  }
  if (f.pcie_generation <= 0 || f.pcie_width <= 0) return std::nullopt;
  Ceiling c;
  c.gbps = f.pcie_width * pcie_lane_gbps(f.pcie_generation);
  c.path = printf_string("PCIe Gen%d x%d", f.pcie_generation, f.pcie_width);
  c.basis = "lanes x per-lane rate after encoding, link from sysfs max_link_speed/max_link_width";
  c.expected_low = 0.70, c.expected_high = 0.80, c.expected_source = kPcieSource;
  return c;
}

std::optional<Ceiling> host_ceiling(const PathFacts& f) {
  if (!f.host_copy || f.host_copy->gbps <= 0) return std::nullopt;
  return Ceiling{
      .gbps = f.host_copy->gbps, .path = "host memory copy", .basis = "measured: " + f.host_copy->method};
}

}  // namespace

std::optional<Ceiling> ceiling_from_facts(const PathFacts& f) {
  const bool gpu_path = traits_of(f.backend).ceiling == CeilingKind::GpuPath;
  if (gpu_path && f.emulated_nodes) {
    auto c = host_ceiling(f);
    if (c) c->path = "host memory (emulated nodes: sockets inside one machine)";
    return c;
  }
  if (f.nodes > 1) return network_ceiling(f);
  return gpu_path ? gpu_ceiling(f) : host_ceiling(f);
}

int nvlinks_from_topology(const std::string& matrix) {
  static const std::regex nv("\\bNV([0-9]{1,2})\\b");
  int most = 0;
  for (auto it = std::sregex_iterator(matrix.begin(), matrix.end(), nv); it != std::sregex_iterator(); ++it)
    most = std::max(most, std::stoi((*it)[1].str()));
  return most;
}

std::optional<int> nvlink_generation(const std::string& name) {
  // Longest names first: "GH200" before "H200", "GB200" before "B200".
  const std::pair<const char*, int> parts[] = {{"GB200", 5}, {"GH200", 4}, {"B200", 5}, {"B100", 5},
                                               {"H200", 4},  {"H100", 4},  {"H800", 4}, {"A100", 3},
                                               {"A800", 3},  {"V100", 2},  {"P100", 1}};
  for (const auto& [part, generation] : parts)
    if (name.find(part) != std::string::npos) return generation;
  return std::nullopt;
}

double nvlink_link_gbps(int generation) { return generation >= 5 ? 50.0 : generation == 1 ? 20.0 : 25.0; }

double pcie_lane_gbps(int generation) {
  switch (generation) {
    case 1:
      return 0.25;
    case 2:
      return 0.5;
    case 3:
      return 0.985;
    case 4:
      return 1.969;
    case 5:
      return 3.938;
    case 6:
      return 7.877;
    default:
      return 0;
  }
}

}  // namespace commtune
