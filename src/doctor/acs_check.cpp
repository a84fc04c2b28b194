#include <cstdio>
#include <set>

#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

constexpr std::size_t kExtendedStart = 0x100;
constexpr std::uint16_t kAcsCapability = 0x000d;
// ACS control bits that send peer-to-peer traffic up to the root complex or block it:
// source validation, P2P request redirect, completion redirect, upstream forwarding, egress control.
constexpr std::uint16_t kP2pBreakingBits = 0x0001 | 0x0004 | 0x0008 | 0x0010 | 0x0020;

std::uint32_t dword_at(const std::string& bytes, std::size_t offset) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
  return v;
}

std::string bits_text(std::uint16_t control) {
  const std::pair<std::uint16_t, const char*> names[] = {{0x0001, "SrcValid"},
                                                         {0x0004, "ReqRedir"},
                                                         {0x0008, "CmpltRedir"},
                                                         {0x0010, "UpstreamFwd"},
                                                         {0x0020, "EgressCtrl"}};
  std::string text;
  for (const auto& [bit, name] : names)
    if (control & bit) text += (text.empty() ? "" : " ") + std::string(name) + "+";
  return text;
}

}  // namespace

std::optional<std::uint16_t> acs_control(const std::string& config) {
  if (config.size() < kExtendedStart + 8) return std::nullopt;  // unprivileged readers see 64 or 256 bytes
  std::size_t offset = kExtendedStart;
  for (int hops = 0; hops < 64 && offset >= kExtendedStart && offset + 8 <= config.size(); ++hops) {
    const std::uint32_t header = dword_at(config, offset);
    if (header == 0 || header == 0xffffffffu) return std::uint16_t{0};
    if ((header & 0xffff) == kAcsCapability)
      return static_cast<std::uint16_t>(static_cast<unsigned char>(config[offset + 6]) |
                                        (static_cast<unsigned char>(config[offset + 7]) << 8));
    offset = (header >> 20) & 0xffc;
    if (offset == 0) break;
  }
  return std::uint16_t{0};  // no ACS capability: nothing redirected
}

// Switch ports on the path of a GPU, on a machine with more than one GPU: ACS redirection there
// sends GPU-to-GPU traffic up to the root complex (or blocks it), and P2P is slow or fails. Root
// ports (directly below a host bridge) are left alone: Linux enables ACS on them with an IOMMU,
// and traffic between root ports goes through the root complex anyway.
std::vector<Finding> check_acs(const SystemTree& tree, const std::vector<PciDevice>& devices) {
  std::vector<const PciDevice*> gpus;
  for (const auto& d : devices)
    if (is_gpu(d)) gpus.push_back(&d);
  if (gpus.size() < 2) return {};
  std::set<std::string> seen;
  std::vector<Finding> out;
  int unreadable = 0;
  for (const PciDevice* gpu : gpus)
    for (const PciDevice* bridge : upstream_bridges(devices, *gpu)) {
      if (!bridge->parent || !seen.insert(bridge->bdf).second) continue;
      const auto config = tree.read_content(tree.at(bridge->sysfs_path + "/config"), 4096);
      const auto control = config ? acs_control(*config) : std::nullopt;
      if (!control) {
        ++unreadable;
        continue;
      }
      if ((*control & kP2pBreakingBits) == 0) continue;
      char value[16];
      std::snprintf(value, sizeof value, "0x%04x", *control);
      out.push_back(
          Finding{"pcie-acs-enabled", Severity::Critical, "bridge " + bridge->bdf + " above GPU " + gpu->bdf,
                  std::string("ACS control ") + value + " (" + bits_text(*control) +
                      ") in the ACS extended capability of " + bridge->sysfs_path + "/config",
                  "disable ACS on the bridges between GPUs (BIOS setting, or setpci on the ACS control "
                  "register at boot); bare metal only: VMs may need it for isolation"});
    }
  if (unreadable > 0)
    out.push_back(Finding{"pcie-acs-unknown", Severity::Info,
                          std::to_string(unreadable) + " bridge(s) above GPUs",
                          "their PCIe extended configuration space was not readable (needs root)",
                          "run `commtune doctor` as root to check ACS"});
  return out;
}

}  // namespace commtune
