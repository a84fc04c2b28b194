#pragma once
// The worker's side of the protocol: read a request line, do it with the engine, write one reply
// line; until "finish" or until the supervisor goes away.
#include <optional>

#include "backend/nccl/simulated/test_faults.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

// Returns the worker's exit code.
int serve_supervisor(WorkerEngine& engine, const WorkerIdentity& identity, int channel,
                     const std::optional<TestFault>& fault);

}  // namespace commtune
