#include "backend/nccl/worker/device_case.hpp"

#include "backend/nccl/worker/nccl_check.hpp"
#include "backend/nccl/worker/nccl_types.hpp"
#include "fill_verify.hpp"

namespace commtune {

void DeviceCase::CudaFree::operator()(std::byte* pointer) const { cudaFree(pointer); }

DeviceCase::DeviceBuffer DeviceCase::allocate(std::size_t bytes) {
  void* pointer = nullptr;
  check_cuda(cudaMalloc(&pointer, bytes == 0 ? 1 : bytes), "cudaMalloc");  // not fatal: the next case may fit
  return DeviceBuffer(static_cast<std::byte*>(pointer));
}

DeviceCase::DeviceCase(const Case& c, int rank, int nranks)
    : case_(c), rank_(rank), nranks_(nranks), counts_(buffer_counts(c.collective, c.bytes, c.dtype, nranks)),
      element_size_(size_of(c.dtype)) {
  scratch_ = allocate(2 * scratch_bytes());
  const bool in_place = c.placement == Placement::InPlace;
  // NCCL in place: the send buffer is the receive buffer (or holds it, for reduce-scatter).
  if (c.collective == Collective::ReduceScatter) {
    send_ = allocate(counts_.send_elements * element_size_);
    if (!in_place) recv_ = allocate(counts_.recv_elements * element_size_);
    return;
  }
  recv_ = allocate(counts_.recv_elements * element_size_);
  if (!in_place) send_ = allocate(counts_.send_elements * element_size_);
}

std::size_t DeviceCase::scratch_bytes() const { return static_cast<std::size_t>(nranks_) * element_size_; }

std::byte* DeviceCase::input() const {
  const bool in_place = case_.placement == Placement::InPlace;
  switch (case_.collective) {
    case Collective::AllGather: return in_place ? at(recv_, static_cast<std::size_t>(rank_) * counts_.count) : send_.get();
    case Collective::ReduceScatter: return send_.get();
    case Collective::AllReduce:
    case Collective::Broadcast: break;
  }
  return in_place ? recv_.get() : send_.get();
}

std::byte* DeviceCase::result() const {
  if (case_.collective == Collective::ReduceScatter && case_.placement == Placement::InPlace)
    return at(send_, static_cast<std::size_t>(rank_) * counts_.count);
  return recv_.get();
}

void DeviceCase::fill_for_check(cudaStream_t stream) {
  const DataType t = case_.dtype;
  check_cuda(cudaMemsetAsync(scratch_.get(), 0, 2 * scratch_bytes(), stream), "cudaMemsetAsync");
  if (recv_) kernels::fill_poison(recv_.get(), counts_.recv_elements, t, stream);
  switch (case_.collective) {
    case Collective::AllReduce:
    case Collective::ReduceScatter:
      kernels::fill_inputs(input(), counts_.send_elements, t, case_.op, rank_, nranks_, 0, stream);
      break;
    case Collective::AllGather:
      kernels::fill_inputs(input(), counts_.count, t, case_.op, rank_, nranks_, static_cast<std::size_t>(rank_) * counts_.count,
                           stream);
      break;
    case Collective::Broadcast:
      if (rank_ == case_.root) kernels::fill_inputs(input(), counts_.count, t, case_.op, case_.root, nranks_, 0, stream);
      break;
  }
}

ncclResult_t DeviceCase::launch(ncclComm_t comm, cudaStream_t stream) const {
  return launch_on(comm, stream, input(), result(), counts_.count);
}

ncclResult_t DeviceCase::launch_barrier(ncclComm_t comm, cudaStream_t stream) const {
  return launch_on(comm, stream, scratch_.get(), scratch_.get() + scratch_bytes(), 1);
}

ncclResult_t DeviceCase::launch_on(ncclComm_t comm, cudaStream_t stream, const void* send, void* recv, std::size_t n) const {
  const ncclDataType_t type = to_nccl(case_.dtype);
  switch (case_.collective) {
    case Collective::AllReduce: return ncclAllReduce(send, recv, n, type, to_nccl(case_.op), comm, stream);
    case Collective::AllGather: return ncclAllGather(send, recv, n, type, comm, stream);
    case Collective::Broadcast: return ncclBroadcast(send, recv, n, type, case_.root, comm, stream);
    case Collective::ReduceScatter: return ncclReduceScatter(send, recv, n, type, to_nccl(case_.op), comm, stream);
  }
  return ncclInvalidArgument;
}

void DeviceCase::count_wrong(unsigned long long* counter, cudaStream_t stream) const {
  const DataType t = case_.dtype;
  const std::size_t n = counts_.count;
  switch (case_.collective) {
    case Collective::AllReduce:
      kernels::count_mismatches(result(), n, t, case_.op, -1, nranks_, 0, counter, stream);
      break;
    case Collective::ReduceScatter:
      kernels::count_mismatches(result(), n, t, case_.op, -1, nranks_, static_cast<std::size_t>(rank_) * n, counter, stream);
      break;
    case Collective::AllGather:
      for (int r = 0; r < nranks_; ++r)
        kernels::count_mismatches(at(recv_, static_cast<std::size_t>(r) * n), n, t, case_.op, r, nranks_,
                                  static_cast<std::size_t>(r) * n, counter, stream);
      break;
    case Collective::Broadcast:
      kernels::count_mismatches(result(), n, t, case_.op, case_.root, nranks_, 0, counter, stream);
      break;
  }
}

}  // namespace commtune
