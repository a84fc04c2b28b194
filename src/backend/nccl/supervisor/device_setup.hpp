#pragma once
// Pieces of an NCCL sweep shared by both control planes: the device probe (a short-lived worker
// tells what GPUs, driver, CUDA and NCCL this host has, so the supervisor never holds a CUDA
// context) and the facts every supervisor must agree on before planning.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "plan/sweep_options.hpp"
#include "control/control_plane.hpp"

namespace commtune {

// Every setting of the config, checked before anything is launched (InputError names the setting).
void validate_nccl_settings(const SweepConfig& config, const KnobChecks& extra = {});

WorkerCommand this_worker_command();

// Asks one worker for this host's device facts; throws UnavailableError when it cannot.
nlohmann::json probe_devices(const WorkerCommand& command, const NcclRunOptions& run);
int device_count(const nlohmann::json& probe);

// Devices for `ranks` workers on `gpus` GPUs; throws InputError when ranks share GPUs without
// --emulate-nodes.
std::vector<int> devices_for(int first_local_rank, int local_ranks, int gpus, bool emulate_nodes);

struct AgreedDeviceFacts {
  std::uint64_t free_device_bytes = 0;  // least free memory of any device used, all hosts
  int ranks_per_device = 1;
  nlohmann::json provenance;  // rank 0 only
};

AgreedDeviceFacts agree_device_facts(ControlPlane& control, const SupervisorLayout& layout, const nlohmann::json& probe,
                                     const NcclRunOptions& run);

}  // namespace commtune
