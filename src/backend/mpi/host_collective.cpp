#include "backend/mpi/host_collective.hpp"

#include "backend/mpi/mpi_environment.hpp"
#include "backend/mpi/mpi_types.hpp"
#include "measure/data_pattern.hpp"

namespace commtune {
namespace {

std::int64_t count_span_mismatches(std::span<const std::byte> data, DataType t, ReduceOp op, int nranks,
                                   const DataSpan& span) {
  if (span.source_rank == kReduced) return count_reduced_mismatches(data, t, span.first_index, op, nranks);
  return count_input_mismatches(data, t, op, span.source_rank, nranks, span.first_index);
}

}  // namespace

HostCollective::HostCollective(const Case& c, MPI_Comm comm)
    : case_(c), comm_(comm), own_(std::make_unique<HostBuffers>()) {
  take_buffers(*own_);
}

HostCollective::HostCollective(const Case& c, MPI_Comm comm, HostBuffers& buffers) : case_(c), comm_(comm) {
  take_buffers(buffers);
}

void HostCollective::take_buffers(HostBuffers& buffers) {
  const Case& c = case_;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &nranks_);
  counts_ = buffer_counts(c.collective, c.bytes, c.dtype, nranks_);
  in_place_offsets_ = mpi_in_place_offsets(c.collective, rank_, counts_.count);
  element_size_ = size_of(c.dtype);
  to_mpi(c.dtype);  // rejects types MPI cannot carry before any buffer is allocated
  send_ = buffers.send(send_buffer_elements(counts_, c.placement) * element_size_);
  recv_ = buffers.recv(recv_buffer_elements(counts_, c.placement) * element_size_);
}

std::byte* HostCollective::input() {
  return in_place() ? recv_.data() + in_place_offsets_.input * element_size_ : send_.data();
}

// MPI_Bcast takes one buffer: on the root it is the input, which out of place stays in the send buffer.
std::byte* HostCollective::result() {
  if (case_.collective == Collective::Broadcast && rank_ == case_.root) return input();
  return recv_.data() + (in_place() ? in_place_offsets_.result : 0) * element_size_;
}

std::span<std::byte> HostCollective::elements(std::byte* base, const DataSpan& span) const {
  return {base + span.offset * element_size_, span.elements * element_size_};
}

void HostCollective::run() {
  const MPI_Datatype type = to_mpi(case_.dtype);
  const void* send = in_place() ? MPI_IN_PLACE : input();
  void* recv = recv_.data();  // in place, the one buffer MPI reads and writes
  const int count = static_cast<int>(counts_.count);
  int code = MPI_SUCCESS;
  switch (case_.collective) {
    case Collective::AllReduce:
      code = MPI_Allreduce(send, recv, count, type, to_mpi(case_.op), comm_);
      break;
    case Collective::AllGather:
      code = MPI_Allgather(send, count, type, recv, count, type, comm_);
      break;
    case Collective::Broadcast:
      code = MPI_Bcast(result(), count, type, case_.root, comm_);
      break;
    case Collective::ReduceScatter:
      code = MPI_Reduce_scatter_block(send, recv, count, type, to_mpi(case_.op), comm_);
      break;
  }
  check_mpi(code, "collective call");
}

void HostCollective::fill_for_check() {
  fill_poison(recv_, case_.dtype, poison_value(case_.dtype, case_.op, nranks_));
  if (const auto span = input_span(case_.collective, counts_.count, rank_, nranks_, case_.root))
    fill_inputs(elements(input(), *span), case_.dtype, case_.op, span->source_rank, nranks_,
                span->first_index);
}

std::int64_t HostCollective::count_wrong() {
  std::int64_t wrong = 0;
  for (const DataSpan& span : result_spans(case_.collective, counts_.count, rank_, nranks_, case_.root))
    wrong += count_span_mismatches(elements(result(), span), case_.dtype, case_.op, nranks_, span);
  return wrong;
}

std::int64_t HostCollective::run_and_check() {
  fill_for_check();
  run();
  return count_wrong();
}

}  // namespace commtune
