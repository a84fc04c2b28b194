#pragma once
// One case's GPU buffers on one rank: where the input goes and where the result lands (sizes and
// NCCL's in-place positions from the collective's traits), the fill before a check, the launch
// of the collective, and the count of wrong elements after it.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "backend/nccl/worker/buffer_slots.hpp"
#include "core/collective_traits.hpp"
#include "plan/plan.hpp"

namespace commtune {

// Device buffers kept from case to case (graph mode: backend/nccl/worker/buffer_slots.hpp), freed
// with their owner; reallocated only where a case needs more than the slot holds.
class DeviceArena {
 public:
  DeviceArena() = default;
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;
  // The slot's memory, at least `needed` bytes (`planned`: what the largest case needs).
  std::byte* take(BufferSlot slot, std::size_t needed, std::size_t planned);
  int allocations() const { return allocations_; }

 private:
  BufferSlots slots_;
  std::array<std::byte*, 3> memory_{};
  int allocations_ = 0;
};

class DeviceCase {
 public:
  // Allocates; throws BackendError (not fatal) when the buffers do not fit. With an arena, takes
  // the buffers from it instead, sized for a case of `largest_bytes`.
  DeviceCase(const Case& c, int rank, int nranks, DeviceArena* arena = nullptr,
             std::uint64_t largest_bytes = 0);

  // Fills the inputs and poisons the results (also zeroes the barrier's scratch buffers).
  void fill_for_check(cudaStream_t stream);
  // Enqueues the collective; returns NCCL's result.
  ncclResult_t launch(ncclComm_t comm, cudaStream_t stream) const;
  // Enqueues the same collective (type, op, root) on one element per rank of scratch buffers: a
  // GPU-side barrier before a timed batch that NCCL can run wherever it runs the case, since
  // which algorithms NCCL 2.28 allows does not depend on the size. All-reduce, all-gather and
  // reduce-scatter wait for every rank; a broadcast only holds every rank back to its root.
  ncclResult_t launch_barrier(ncclComm_t comm, cudaStream_t stream) const;
  // Enqueues the verify kernels, adding wrong elements to *counter (device memory).
  void count_wrong(unsigned long long* counter, cudaStream_t stream) const;

 private:
  struct CudaFree {
    void operator()(std::byte* pointer) const;
  };
  using DeviceBuffer = std::unique_ptr<std::byte, CudaFree>;
  static DeviceBuffer allocate(std::size_t bytes);
  std::byte* at(std::byte* base, std::size_t elements) const { return base + elements * element_size_; }
  bool in_place() const { return case_.placement == Placement::InPlace; }
  std::byte* input() const;   // where this rank's input lives
  std::byte* result() const;  // where this rank's result lands
  ncclResult_t launch_on(ncclComm_t comm, cudaStream_t stream, const void* send, void* recv,
                         std::size_t count) const;
  std::size_t scratch_bytes() const;  // one of the barrier's two scratch buffers

  Case case_;
  int rank_, nranks_;
  BufferCounts counts_;
  InPlaceOffsets in_place_offsets_;
  std::size_t element_size_;
  DeviceBuffer owned_send_, owned_recv_, owned_scratch_;  // without an arena
  std::byte* send_ = nullptr;                             // null in place
  std::byte* recv_ = nullptr;                             // in place, the rank's one buffer
  std::byte* scratch_ = nullptr;  // the barrier's send buffer, then its receive buffer
};

}  // namespace commtune
