#pragma once
// Facts about the host this process runs on, for the planner's memory cap and for provenance;
// for a GPU host, those that need no CUDA context in the supervisor: the NVLink / PCIe picture
// from `nvidia-smi topo -m` and the InfiniBand NICs from /sys/class/infiniband.
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace commtune {

std::uint64_t available_memory_bytes();  // MemAvailable; 0 when unknown
std::string host_name();
std::string kernel_release();
std::string utc_timestamp();  // ISO 8601, seconds
// CPU model, packages, cores, hardware threads, NUMA nodes and memory, as hwloc sees them.
nlohmann::json host_topology();
// The environment variables that shape a run (NCCL_*, OMPI_*, CUDA_*, SLURM_*, ...), by name.
std::map<std::string, std::string> relevant_environment(char** environ_list);

// {"source": ..., "matrix": TEXT} or {"unavailable": WHY}.
nlohmann::json gpu_topology_matrix();
nlohmann::json infiniband_devices(const std::string& root = "/sys/class/infiniband");

}  // namespace commtune
