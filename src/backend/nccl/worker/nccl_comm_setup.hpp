#pragma once
// What the real worker needs to set up its communicator: NCCL's unique id as the text the
// supervisor relays (hex), the blocking config with a setting's CTA bounds and network, and the
// facts of its own device once it is current.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>

#include <nlohmann/json.hpp>

#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

std::string to_hex(const ncclUniqueId& id);
// Throws CommunicatorLost on a malformed id.
ncclUniqueId from_hex(const std::string& hex);

// The worker's own device, once it is current (init): its attributes and its free memory, which
// only a context on it can read.
nlohmann::json own_device_facts(int device);

// `net_name` must outlive the config (NCCL keeps the pointer until the init returns).
ncclConfig_t blocking_config(const CommConfig& config, const std::string& net_name);

}  // namespace commtune
