#pragma once
// One case's collective on host memory: its buffers, the MPI call, and the data check. Buffer
// sizes, in-place positions and the expected data come from the collective's traits.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/check_layout.hpp"
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
  std::int64_t count_wrong();
  bool in_place() const { return case_.placement == Placement::InPlace; }
  std::byte* input();   // where this rank's input lives
  std::byte* result();  // where this rank's result is after the call
  std::span<std::byte> elements(std::byte* base, const DataSpan& span) const;

  Case case_;
  MPI_Comm comm_;
  int rank_ = 0, nranks_ = 1;
  BufferCounts counts_;
  InPlaceOffsets in_place_offsets_;
  std::size_t element_size_;
  std::vector<std::byte> send_;  // empty in place
  std::vector<std::byte> recv_;  // in place, the rank's one buffer
};

}  // namespace commtune
