#pragma once
// The real worker's replay of a training step (`commtune replay`): every call's buffers on its
// group's communicator, then the steps, each from a one-byte all-reduce of the whole job, with a
// CUDA event after the barrier and after each call's repeats.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include "backend/nccl/worker/pair_exchange.hpp"
#include "backend/nccl/worker/worker_comms.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

// `rank` and `nranks`: the worker's in the world. Throws BackendError (a call without its
// communicator, buffers that do not fit) or what `work` throws for a refused launch.
ReplayedSteps replay_steps(const StepsRequest& request, const WorkerComms& comms, int rank, int nranks,
                           cudaStream_t stream, StreamWork& work);

}  // namespace commtune
