#pragma once
// One case's collective on host memory: its buffers, the MPI call, and the data check.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/collective_traits.hpp"
#include "plan/plan.hpp"

namespace commtune {

class HostCollective {
 public:
  HostCollective(const Case& c, MPI_Comm comm);
  // One collective call; throws BackendError with MPI's error text.
  void run();
  // Fills deterministic inputs, runs once, returns this rank's mismatching elements.
  std::int64_t run_and_check();

 private:
  void fill_for_check();
  std::int64_t count_wrong() const;
  std::byte* send_data() { return case_.placement == Placement::InPlace ? in_place_send() : send_.data(); }
  std::byte* in_place_send();

  Case case_;
  MPI_Comm comm_;
  int rank_ = 0, nranks_ = 1;
  BufferCounts counts_;
  std::size_t element_size_;
  std::vector<std::byte> send_, recv_;
};

}  // namespace commtune
