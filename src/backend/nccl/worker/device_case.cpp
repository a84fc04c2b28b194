#include "backend/nccl/worker/device_case.hpp"

#include "measure/data_pattern.hpp"

#include "backend/nccl/worker/nccl_check.hpp"
#include "backend/nccl/worker/nccl_types.hpp"
#include "core/check_layout.hpp"
#include "fill_verify.hpp"

namespace commtune {

void DeviceCase::CudaFree::operator()(std::byte* pointer) const { cudaFree(pointer); }

DeviceCase::DeviceBuffer DeviceCase::allocate(std::size_t bytes) {
  void* pointer = nullptr;
  check_cuda(cudaMalloc(&pointer, bytes == 0 ? 1 : bytes), "cudaMalloc");  // not fatal: the next case may fit
  return DeviceBuffer(static_cast<std::byte*>(pointer));
}

DeviceArena::~DeviceArena() {
  for (std::byte* memory : memory_)
    if (memory != nullptr) cudaFree(memory);
}

std::byte* DeviceArena::take(BufferSlot slot, std::size_t needed, std::size_t planned) {
  std::byte*& memory = memory_[static_cast<std::size_t>(slot)];
  const std::optional<std::size_t> grown = slots_.grow(slot, needed, planned);
  if (!grown) return memory;
  if (memory != nullptr) cudaFree(memory);
  memory = nullptr;
  void* pointer = nullptr;
  check_cuda(cudaMalloc(&pointer, *grown), "cudaMalloc (buffers kept for the graph's cases)");
  memory = static_cast<std::byte*>(pointer);
  ++allocations_;
  return memory;
}

DeviceCase::DeviceCase(const Case& c, int rank, int nranks, DeviceArena* arena, std::uint64_t largest_bytes)
    : case_(c),
      rank_(rank),
      nranks_(nranks),
      counts_(buffer_counts(c.collective, c.bytes, c.dtype, nranks)),
      in_place_offsets_(nccl_in_place_offsets(c.collective, rank, counts_.count)),
      element_size_(size_of(c.dtype)) {
  const std::size_t recv_bytes = recv_buffer_elements(counts_, c.placement) * element_size_;
  const std::size_t send_bytes = in_place() ? 0 : send_buffer_elements(counts_, c.placement) * element_size_;
  if (arena == nullptr) {
    owned_recv_ = allocate(recv_bytes);
    if (!in_place()) owned_send_ = allocate(send_bytes);
    owned_scratch_ = allocate(2 * scratch_bytes());
    recv_ = owned_recv_.get(), send_ = owned_send_.get(), scratch_ = owned_scratch_.get();
    return;
  }
  // The largest case of this collective, both placements: what the kept buffers are sized for.
  const BufferCounts largest =
      buffer_counts(c.collective, std::max<std::uint64_t>(largest_bytes, c.bytes), c.dtype, nranks);
  const std::size_t planned_recv = std::max(recv_buffer_elements(largest, Placement::OutOfPlace),
                                            recv_buffer_elements(largest, Placement::InPlace)) *
                                   element_size_;
  const std::size_t planned_send = send_buffer_elements(largest, Placement::OutOfPlace) * element_size_;
  recv_ = arena->take(BufferSlot::Recv, recv_bytes, planned_recv);
  if (!in_place()) send_ = arena->take(BufferSlot::Send, send_bytes, planned_send);
  scratch_ = arena->take(BufferSlot::Scratch, 2 * scratch_bytes(), 2 * scratch_bytes());
}

std::size_t DeviceCase::scratch_bytes() const { return static_cast<std::size_t>(nranks_) * element_size_; }

std::byte* DeviceCase::input() const { return in_place() ? at(recv_, in_place_offsets_.input) : send_; }

std::byte* DeviceCase::result() const { return at(recv_, in_place() ? in_place_offsets_.result : 0); }

void DeviceCase::fill_for_check(cudaStream_t stream) {
  check_cuda(cudaMemsetAsync(scratch_, 0, 2 * scratch_bytes(), stream), "cudaMemsetAsync");
  kernels::fill_poison(recv_, recv_buffer_elements(counts_, case_.placement), case_.dtype,
                       poison_value(case_.dtype, case_.op, nranks_), stream);
  if (const auto span = input_span(case_.collective, counts_.count, rank_, nranks_, case_.root))
    kernels::fill_inputs(at(input(), span->offset), span->elements, case_.dtype, case_.op, span->source_rank,
                         nranks_, span->first_index, stream);
}

ncclResult_t DeviceCase::launch(ncclComm_t comm, cudaStream_t stream) const {
  return launch_on(comm, stream, input(), result(), counts_.count);
}

ncclResult_t DeviceCase::launch_barrier(ncclComm_t comm, cudaStream_t stream) const {
  return launch_on(comm, stream, scratch_, scratch_ + scratch_bytes(), 1);
}

ncclResult_t DeviceCase::launch_on(ncclComm_t comm, cudaStream_t stream, const void* send, void* recv,
                                   std::size_t n) const {
  const ncclDataType_t type = to_nccl(case_.dtype);
  switch (case_.collective) {
    case Collective::AllReduce:
      return ncclAllReduce(send, recv, n, type, to_nccl(case_.op), comm, stream);
    case Collective::AllGather:
      return ncclAllGather(send, recv, n, type, comm, stream);
    case Collective::Broadcast:
      return ncclBroadcast(send, recv, n, type, case_.root, comm, stream);
    case Collective::ReduceScatter:
      return ncclReduceScatter(send, recv, n, type, to_nccl(case_.op), comm, stream);
  }
  return ncclInvalidArgument;
}

void DeviceCase::count_wrong(unsigned long long* counter, cudaStream_t stream) const {
  for (const DataSpan& span : result_spans(case_.collective, counts_.count, rank_, nranks_, case_.root))
    kernels::count_mismatches(at(result(), span.offset), span.elements, case_.dtype, case_.op,
                              span.source_rank, nranks_, span.first_index, counter, stream);
}

}  // namespace commtune
