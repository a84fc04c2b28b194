#include "doctor/pci_devices.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <regex>

namespace commtune {
namespace {

namespace fs = std::filesystem;

bool looks_like_bdf(const std::string& name) {
  static const std::regex bdf("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
  return std::regex_match(name, bdf);
}

std::uint32_t hex_value(const SystemTree& tree, const fs::path& file) {
  const auto text = tree.read_line(file);
  if (!text) return 0;
  return static_cast<std::uint32_t>(std::strtoul(text->c_str(), nullptr, 16));
}

PciLink link_of(const SystemTree& tree, const fs::path& dir, const char* speed, const char* width) {
  PciLink link;
  if (const auto s = tree.read_line(dir / speed)) link.speed_gts = leading_number(*s).value_or(0);
  if (const auto w = tree.read_line(dir / width))
    link.width = static_cast<int>(leading_number(*w).value_or(0));
  return link;
}

PciDevice device_at(const SystemTree& tree, const fs::path& dir, const std::optional<std::string>& parent) {
  PciDevice d;
  d.bdf = dir.filename().string();
  d.sysfs_path = fs::relative(dir, tree.root()).string();
  d.parent = parent;
  d.vendor = hex_value(tree, dir / "vendor");
  d.device = hex_value(tree, dir / "device");
  d.class_code = hex_value(tree, dir / "class");
  if (const auto n = tree.read_line(dir / "numa_node"))
    d.numa_node = static_cast<int>(leading_number(*n).value_or(-1));
  d.current = link_of(tree, dir, "current_link_speed", "current_link_width");
  d.max = link_of(tree, dir, "max_link_speed", "max_link_width");
  return d;
}

void walk(const SystemTree& tree, const fs::path& dir, const std::optional<std::string>& parent,
          std::vector<PciDevice>& out) {
  std::error_code error;
  std::vector<fs::path> children;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (!it->is_symlink() && it->is_directory() && looks_like_bdf(it->path().filename().string()))
      children.push_back(it->path());
  std::sort(children.begin(), children.end());
  for (const auto& child : children) {
    out.push_back(device_at(tree, child, parent));
    walk(tree, child, child.filename().string(), out);
  }
}

}  // namespace

bool is_gpu(const PciDevice& d) { return d.vendor == 0x10de && (d.class_code >> 16) == 0x03; }
bool is_nic(const PciDevice& d) { return (d.class_code >> 16) == 0x02; }
bool is_bridge(const PciDevice& d) { return (d.class_code >> 8) == 0x0604; }
bool is_nvswitch(const PciDevice& d) { return d.vendor == 0x10de && (d.class_code >> 8) == 0x0680; }

int pcie_generation(double speed_gts) {
  const double speeds[] = {2.5, 5, 8, 16, 32, 64};
  for (int i = 0; i < 6; ++i)
    if (std::abs(speed_gts - speeds[i]) < 0.01) return i + 1;
  return 0;
}

std::vector<PciDevice> read_pci_devices(const SystemTree& tree) {
  std::vector<PciDevice> out;
  for (const auto& name : tree.names("sys/devices"))
    if (name.rfind("pci", 0) == 0) walk(tree, tree.at("sys/devices/" + name), std::nullopt, out);
  return out;
}

const PciDevice* find_device(const std::vector<PciDevice>& all, const std::string& bdf) {
  for (const auto& d : all)
    if (d.bdf == bdf) return &d;
  return nullptr;
}

std::vector<const PciDevice*> upstream_bridges(const std::vector<PciDevice>& all, const PciDevice& device) {
  std::vector<const PciDevice*> chain;
  for (auto parent = device.parent; parent;) {
    const PciDevice* up = find_device(all, *parent);
    if (up == nullptr) break;
    if (is_bridge(*up)) chain.push_back(up);
    parent = up->parent;
  }
  return chain;
}

}  // namespace commtune
