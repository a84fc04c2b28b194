#pragma once
// What every NCCL launch under mpirun/srun shares (the sweep's and the doctor's): how long a
// supervisor waits for its peers on the control plane, and how a job ends when one is lost.
#include <chrono>
#include <string>

#include "backend/nccl/supervisor/nccl_run_options.hpp"

namespace commtune {

// Longer than any step a live peer can take (its own watchdog bounds its workers).
std::chrono::milliseconds control_deadline(const NcclRunOptions& run);

// A peer supervisor missed the deadline: says so and exits 75, so that mpirun / srun stop the rest.
[[noreturn]] void end_job(const std::string& message);

}  // namespace commtune
