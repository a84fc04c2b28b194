#pragma once
// The worker's side of the protocol: read a request line, do it with the engine, write one reply
// line; until "finish" or until the supervisor goes away.
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

// Returns the worker's exit code.
int serve_supervisor(WorkerEngine& engine, int channel);

}  // namespace commtune
