#pragma once
// Provenance of a GPU host that needs no CUDA context in the supervisor: the NVLink / PCIe
// picture from `nvidia-smi topo -m` and the InfiniBand NICs from /sys/class/infiniband.
#include <nlohmann/json.hpp>

namespace commtune {

nlohmann::json gpu_topology_matrix();  // {"source": ..., "matrix": TEXT} or {"unavailable": WHY}
nlohmann::json infiniband_devices(const std::string& root = "/sys/class/infiniband");

}  // namespace commtune
