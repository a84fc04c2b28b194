#include <cstdio>

#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

std::string link_text(const PciLink& l) {
  char text[64];
  std::snprintf(text, sizeof text, "%g GT/s (Gen%d) x%d", l.speed_gts, pcie_generation(l.speed_gts), l.width);
  return text;
}

}  // namespace

// A GPU or NIC whose link trained below what both ends support: a bad riser, slot or cable, or a
// device in power saving. GPUs idle at a lower speed (ASPM, driver power states), so a slower
// speed on a GPU is a warning to re-check under load; a narrower link is always critical.
std::vector<Finding> check_pcie_links(const std::vector<PciDevice>& devices) {
  std::vector<Finding> out;
  for (const auto& d : devices) {
    if (!is_gpu(d) && !is_nic(d)) continue;
    if (d.max.speed_gts <= 0 || d.max.width <= 0 || d.current.speed_gts <= 0 || d.current.width <= 0)
      continue;
    const bool narrow = d.current.width < d.max.width;
    const bool slow = d.current.speed_gts + 0.01 < d.max.speed_gts;
    if (!narrow && !slow) continue;
    out.push_back(Finding{
        narrow ? "pcie-link-narrow" : "pcie-link-slow", narrow ? Severity::Critical : Severity::Warning,
        std::string(is_gpu(d) ? "GPU " : "NIC ") + d.bdf,
        "PCIe link runs at " + link_text(d.current) + ", the device supports " + link_text(d.max) + " (" +
            d.sysfs_path + "/current_link_*)",
        narrow ? "reseat the card or riser, check the slot's lane wiring and BIOS bifurcation"
               : "re-check under load (GPUs lower the link speed when idle); if it stays low, "
                 "check the slot, riser and BIOS PCIe generation setting"});
  }
  return out;
}

}  // namespace commtune
