#pragma once
// The real worker's part in one round of the pairwise map: exchanges with its peer on the world
// communicator (both directions at once), timed by CUDA events.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <functional>
#include <string>

#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

// How the engine handles work it puts on its stream: a launch NCCL refused, a failed enqueue
// (drained before it is reported), the wait for the stream.
class StreamWork {
 public:
  virtual ~StreamWork() = default;
  virtual void require_launched(const std::string& what, ncclResult_t result) = 0;
  virtual void enqueue_then_drain_on_error(const std::function<void()>& enqueue) = 0;
  virtual void wait_for_stream(const char* what) = 0;
};

// Warm-up (connections are made at a pair's first exchange), then the latency samples, then the
// bandwidth samples, each timed by CUDA events around `count` exchanges that follow an untimed
// 8-byte one (the two peers leave it together, as a barrier).
PairSamples measure_pair(const PairwiseRequest& r, ncclComm_t comm, cudaStream_t stream, StreamWork& work);

}  // namespace commtune
