#pragma once
// The PCI devices of a system as sysfs shows them under sys/devices/pci*: each device's
// directory sits inside its upstream bridge's, so the tree itself gives the path from a GPU to
// the root port. Read from a SystemTree; pure otherwise.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "doctor/system_tree.hpp"

namespace commtune {

struct PciLink {
  double speed_gts = 0;  // GT/s, from "16.0 GT/s PCIe"; 0 when unknown
  int width = 0;         // lanes; 0 when unknown
};

struct PciDevice {
  std::string bdf;                    // 0000:18:00.0
  std::string sysfs_path;             // relative to the root: sys/devices/pci0000:00/.../0000:18:00.0
  std::optional<std::string> parent;  // the upstream bridge's bdf; none below a host bridge
  std::uint32_t vendor = 0, device = 0, class_code = 0;  // class 0x030200
  int numa_node = -1;                                    // -1: unknown (as sysfs says)
  PciLink current, max;
};

bool is_gpu(const PciDevice& d);       // NVIDIA (0x10de), display class 0x03xxxx
bool is_nic(const PciDevice& d);       // network class 0x02xxxx
bool is_bridge(const PciDevice& d);    // PCI-to-PCI bridge 0x0604xx
bool is_nvswitch(const PciDevice& d);  // NVIDIA bridge 0x0680xx

// "Gen5" from a speed in GT/s (2.5, 5, 8, 16, 32, 64); 0 when not one of them.
int pcie_generation(double speed_gts);

// Every PCI device below sys/devices/pci*, in path order.
std::vector<PciDevice> read_pci_devices(const SystemTree& tree);

// The bridges from `device` up to its root port, nearest first.
std::vector<const PciDevice*> upstream_bridges(const std::vector<PciDevice>& all, const PciDevice& device);

const PciDevice* find_device(const std::vector<PciDevice>& all, const std::string& bdf);

}  // namespace commtune
