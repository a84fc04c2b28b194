#pragma once
// The CUDA and NCCL handles the real worker owns, each released by its destructor: a pool of
// timing events, an instantiated CUDA graph and a stream capture, a device allocation, and the
// send/receive buffers of a pairwise exchange.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <vector>

#include "backend/nccl/worker/nccl_check.hpp"

namespace commtune {

class EventPool {
 public:
  explicit EventPool(std::size_t n) : events_(n) {
    for (auto& e : events_) check_cuda(cudaEventCreate(&e), "cudaEventCreate", true);
  }
  ~EventPool() {
    for (auto e : events_) cudaEventDestroy(e);
  }
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;
  cudaEvent_t operator[](std::size_t i) const { return events_[i]; }

  double seconds_between(std::size_t from, std::size_t to) const {
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, events_[from], events_[to]), "cudaEventElapsedTime", true);
    return ms * 1e-3;
  }
  // Seconds from the first event to each event (each mark is one reading, so the loop's length
  // is not a sum of rounded intervals).
  std::vector<double> marks() const {
    std::vector<double> seconds(events_.size());
    for (std::size_t i = 0; i < events_.size(); ++i) seconds[i] = i == 0 ? 0.0 : seconds_between(0, i);
    return seconds;
  }

 private:
  std::vector<cudaEvent_t> events_;
};

// An instantiated CUDA graph, destroyed with its owner.
class GraphExec {
 public:
  // Instantiates `graph` and destroys it (the executable graph does not need it).
  explicit GraphExec(cudaGraph_t graph) {
    const cudaError_t built = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    check_cuda(built, "cudaGraphInstantiate", true);
  }
  ~GraphExec() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  cudaGraphExec_t get() const { return exec_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// A stream capture that always ends: finish() makes the graph; abandon() (or leaving early)
// ends the capture and drops what was captured, so the stream is usable again.
class StreamCapture {
 public:
  explicit StreamCapture(cudaStream_t stream) : stream_(stream) {
    // Thread-local mode, as nccl-tests: NCCL may call CUDA from its own threads meanwhile.
    check_cuda(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture",
               true);
  }
  ~StreamCapture() { abandon(); }
  StreamCapture(const StreamCapture&) = delete;
  StreamCapture& operator=(const StreamCapture&) = delete;

  void abandon() {
    if (stream_ == nullptr) return;
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(stream_, &graph);
    stream_ = nullptr;
    if (graph != nullptr) cudaGraphDestroy(graph);
    cudaGetLastError();  // an invalidated capture is not this process's lasting error
  }

  std::unique_ptr<GraphExec> finish() {
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream_, &graph);
    stream_ = nullptr;
    if (ended != cudaSuccess && graph != nullptr) cudaGraphDestroy(graph);
    check_cuda(ended, "cudaStreamEndCapture", true);
    return std::make_unique<GraphExec>(graph);
  }

 private:
  cudaStream_t stream_;
};

// Device memory for the pairwise map's exchanges, freed with its owner.
class DeviceBytes {
 public:
  explicit DeviceBytes(std::size_t bytes) {
    check_cuda(cudaMalloc(&pointer_, bytes), "cudaMalloc (pairwise buffer)");
    check_cuda(cudaMemset(pointer_, 1, bytes), "cudaMemset (pairwise buffer)");
  }
  ~DeviceBytes() {
    if (pointer_ != nullptr) cudaFree(pointer_);
  }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  void* get() const { return pointer_; }

 private:
  void* pointer_ = nullptr;
};

// One pair's buffers: a send and a receive buffer of the bandwidth message and of 8 bytes.
struct PairBuffers {
  explicit PairBuffers(std::size_t bytes) : send(bytes), recv(bytes), small_send(8), small_recv(8) {}
  DeviceBytes send, recv, small_send, small_recv;
};

// Blocking, NCCL's default and what nccl-tests uses: with blocking = 0 every group end (every
// collective is one) starts a launch thread (src/group.cc). Only the CTA bounds that were given
// are set: NCCL refuses minCTAs > maxCTAs before it fills defaults (src/init.cc,
// parseCommConfig), so completing a lone bound is the supervisor's (comm_config_of).

// The data check's count of wrong elements: on the device, and its pinned host copy (into pinned
// memory the copy is queued like a kernel and returns at once; into pageable memory it would block
// until the collective is done, outside the worker's polling).
class WrongCounter {
 public:
  WrongCounter() {
    check_cuda(cudaMalloc(&device_, sizeof *device_), "cudaMalloc", true);
    check_cuda(cudaMallocHost(&host_, sizeof *host_), "cudaMallocHost", true);
  }
  ~WrongCounter() {
    cudaFreeHost(host_);
    cudaFree(device_);
  }
  WrongCounter(const WrongCounter&) = delete;
  WrongCounter& operator=(const WrongCounter&) = delete;
  unsigned long long* device() const { return device_; }
  void zero(cudaStream_t stream) const {
    check_cuda(cudaMemsetAsync(device_, 0, sizeof *device_, stream), "cudaMemsetAsync", true);
  }
  void copy_to_host(cudaStream_t stream) const {
    check_cuda(cudaMemcpyAsync(host_, device_, sizeof *device_, cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync", true);
  }
  unsigned long long host_value() const { return *host_; }  // after the stream drained

 private:
  unsigned long long* device_ = nullptr;
  unsigned long long* host_ = nullptr;
};

}  // namespace commtune
