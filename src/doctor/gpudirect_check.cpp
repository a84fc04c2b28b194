#include <cstdio>
#include <sstream>

#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

bool module_loaded(const SystemTree& tree, const std::string& name) {
  if (tree.exists("sys/module/" + name)) return true;
  std::istringstream modules(tree.content("proc/modules").value_or(""));
  for (std::string line; std::getline(modules, line);)
    if (line.rfind(name + " ", 0) == 0) return true;
  return false;
}

// dma-buf GPUDirect needs Linux 5.12 or later and NVIDIA's open kernel module.
bool dmabuf_possible(const SystemTree& tree, std::string& why) {
  const std::string release = tree.line("proc/sys/kernel/osrelease").value_or("");
  int major = 0, minor = 0;
  std::sscanf(release.c_str(), "%d.%d", &major, &minor);
  const bool kernel = major > 5 || (major == 5 && minor >= 12);
  const bool open_module =
      tree.content("proc/driver/nvidia/version").value_or("").find("Open Kernel Module") != std::string::npos;
  why = "kernel " + (release.empty() ? std::string("unknown") : release) + (kernel ? " has" : " lacks") +
        " dma-buf for RDMA (5.12+); the NVIDIA kernel module is " +
        (open_module ? "the open one" : "not the open one");
  return kernel && open_module;
}

}  // namespace

// Without GPUDirect RDMA, NCCL stages every network transfer through host memory: about a third
// of the NIC's rate is lost (a NIC behind the CPU without it gives ~16 GB/s, NCCL #412).
std::vector<Finding> check_gpudirect(const SystemTree& tree, const std::vector<PciDevice>& devices,
                                     const std::vector<RdmaPort>& ports) {
  bool gpus = false;
  for (const auto& d : devices) gpus = gpus || is_gpu(d);
  if (!gpus || ports.empty()) return {};
  if (module_loaded(tree, "nvidia_peermem") || module_loaded(tree, "nv_peer_mem")) return {};
  std::string why;
  if (dmabuf_possible(tree, why)) return {};
  return {Finding{"gpudirect-rdma-missing", Severity::Critical, "GPUDirect RDMA",
                  "nvidia_peermem is not loaded (proc/modules, sys/module) and dma-buf is not usable: " + why,
                  "`modprobe nvidia_peermem` (ships with the NVIDIA driver), or use the open kernel module "
                  "on Linux 5.12+ "
                  "for dma-buf; check with NCCL_DEBUG=INFO (look for 'GPU Direct RDMA Enabled')"}};
}

}  // namespace commtune
