#pragma once
// The worker half of fault injection (test build only): an engine that misbehaves as a test
// fault asks, at the matching request, around the engine it wraps.
#include <memory>
#include <optional>

#include "backend/nccl/simulated/test_faults.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

// `inner` itself when there is no fault for `rank`; `channel` is where garbage is written.
std::unique_ptr<WorkerEngine> with_worker_fault(std::unique_ptr<WorkerEngine> inner,
                                                const std::optional<TestFault>& fault, int rank, int channel);

}  // namespace commtune
