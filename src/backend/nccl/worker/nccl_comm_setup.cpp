#include "backend/nccl/worker/nccl_comm_setup.hpp"

#include <string>

#include "backend/nccl/worker/cuda_probe.hpp"
#include "backend/nccl/worker/nccl_check.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

std::string to_hex(const ncclUniqueId& id) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (char byte : id.internal) {
    const auto b = static_cast<unsigned char>(byte);
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return hex;
}

ncclUniqueId from_hex(const std::string& hex) {
  ncclUniqueId id;
  if (hex.size() != 2 * sizeof id.internal) throw CommunicatorLost("malformed NCCL unique id");
  for (std::size_t i = 0; i < sizeof id.internal; ++i)
    id.internal[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return id;
}

// The worker's own device, once it is current (init): its attributes and its free memory, which
// only a context on it can read.
nlohmann::json own_device_facts(int device) {
  nlohmann::json facts = device_attributes(device);
  std::size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  facts["free_bytes"] = free;
  return facts;
}

ncclConfig_t blocking_config(const CommConfig& config, const std::string& net_name) {
  ncclConfig_t nccl_config = NCCL_CONFIG_INITIALIZER;
  nccl_config.blocking = 1;
  if (config.min_ctas) nccl_config.minCTAs = *config.min_ctas;
  if (config.max_ctas) nccl_config.maxCTAs = *config.max_ctas;
  if (!net_name.empty()) nccl_config.netName = net_name.c_str();
  return nccl_config;
}

}  // namespace commtune
