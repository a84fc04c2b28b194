#include "backend/mpi/host_collective.hpp"

#include <cstring>
#include <span>

#include "backend/mpi/mpi_environment.hpp"
#include "backend/mpi/mpi_types.hpp"
#include "measure/data_pattern.hpp"

namespace commtune {

HostCollective::HostCollective(const Case& c, MPI_Comm comm) : case_(c), comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &nranks_);
  counts_ = buffer_counts(c.collective, c.bytes, c.dtype, nranks_);
  element_size_ = size_of(c.dtype);
  to_mpi(c.dtype);  // rejects types MPI cannot carry before any buffer is allocated
  // In place, the input lives inside the receive buffer (or, for reduce-scatter, is the send buffer).
  const bool separate_send = c.placement == Placement::OutOfPlace || c.collective == Collective::ReduceScatter;
  if (separate_send) send_.resize(counts_.send_elements * element_size_);
  recv_.resize(counts_.recv_elements * element_size_);
}

std::byte* HostCollective::in_place_send() {
  return case_.collective == Collective::ReduceScatter ? send_.data() : recv_.data();
}

void HostCollective::run() {
  const MPI_Datatype type = to_mpi(case_.dtype);
  const bool in_place = case_.placement == Placement::InPlace;
  const int count = static_cast<int>(counts_.count);
  int code = MPI_SUCCESS;
  switch (case_.collective) {
    case Collective::AllReduce:
      code = MPI_Allreduce(in_place ? MPI_IN_PLACE : send_.data(), recv_.data(), count, type, to_mpi(case_.op), comm_);
      break;
    case Collective::AllGather:
      code = MPI_Allgather(in_place ? MPI_IN_PLACE : send_.data(), count, type, recv_.data(), count, type, comm_);
      break;
    case Collective::Broadcast:
      // Out of place, the root sends from its own send buffer; the others receive into recv.
      code = MPI_Bcast(!in_place && rank_ == case_.root ? send_.data() : recv_.data(), count, type, case_.root, comm_);
      break;
    case Collective::ReduceScatter:
      code = MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : send_.data(), in_place ? send_.data() : recv_.data(),
                                      count, type, to_mpi(case_.op), comm_);
      break;
  }
  check_mpi(code, "collective call");
}

void HostCollective::fill_for_check() {
  const DataType t = case_.dtype;
  std::span<std::byte> recv(recv_);
  fill_poison(recv, t);
  switch (case_.collective) {
    case Collective::AllReduce:
    case Collective::ReduceScatter:
      fill_inputs(std::span<std::byte>(send_data(), counts_.send_elements * element_size_), t, case_.op, rank_, nranks_);
      break;
    case Collective::AllGather: {
      std::byte* mine = case_.placement == Placement::InPlace ? recv_.data() + rank_ * counts_.count * element_size_
                                                              : send_.data();
      fill_inputs(std::span<std::byte>(mine, counts_.count * element_size_), t, case_.op, rank_, nranks_,
                  static_cast<std::size_t>(rank_) * counts_.count);
      break;
    }
    case Collective::Broadcast:
      if (rank_ == case_.root)
        fill_inputs(std::span<std::byte>(send_data(), counts_.count * element_size_), t, case_.op, case_.root, nranks_);
      break;
  }
}

std::int64_t HostCollective::count_wrong() const {
  const DataType t = case_.dtype;
  const std::size_t chunk = counts_.count * element_size_;
  switch (case_.collective) {
    case Collective::AllReduce:
      return count_mismatches(recv_, t, 0, reduced_value, case_.op, nranks_);
    case Collective::ReduceScatter: {
      const std::byte* result = case_.placement == Placement::InPlace ? send_.data() : recv_.data();
      return count_mismatches(std::span<const std::byte>(result, chunk), t, static_cast<std::size_t>(rank_) * counts_.count,
                              reduced_value, case_.op, nranks_);
    }
    case Collective::AllGather: {
      std::int64_t wrong = 0;
      for (int r = 0; r < nranks_; ++r)
        wrong += count_input_mismatches(std::span<const std::byte>(recv_.data() + r * chunk, chunk), t, case_.op, r,
                                        nranks_, static_cast<std::size_t>(r) * counts_.count);
      return wrong;
    }
    case Collective::Broadcast: {
      const bool root_kept_send = case_.placement == Placement::OutOfPlace && rank_ == case_.root;
      const std::byte* data = root_kept_send ? send_.data() : recv_.data();
      return count_input_mismatches(std::span<const std::byte>(data, chunk), t, case_.op, case_.root, nranks_);
    }
  }
  return 0;
}

std::int64_t HostCollective::run_and_check() {
  fill_for_check();
  run();
  return count_wrong();
}

}  // namespace commtune
