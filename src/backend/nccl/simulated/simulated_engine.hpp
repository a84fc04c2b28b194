#pragma once
// The simulated worker engine of the test build: answers like the NCCL engine, with modelled
// timings and no GPU, so that supervisors, the watchdog and the whole sweep run in CI.
#include <memory>

#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

// GPUs of the simulated machine; CUDA_VISIBLE_DEVICES selects among them as it does on CUDA.
inline constexpr int kSimulatedGpuCount = 2;

std::unique_ptr<WorkerEngine> make_simulated_engine(const WorkerIdentity& identity);

}  // namespace commtune
