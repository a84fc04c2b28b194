#pragma once
// One case's collective on host memory: its buffers, the MPI call, and the data check. Buffer
// sizes, in-place positions and the expected data come from the collective's traits.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "backend/mpi/host_buffers.hpp"
#include "core/check_layout.hpp"
#include "core/collective_traits.hpp"
#include "plan/plan.hpp"

namespace commtune {

class HostCollective {
 public:
  // Buffers of its own (the replay keeps one per distinct call of a step, all alive at once).
  HostCollective(const Case& c, MPI_Comm comm);
  // Buffers taken from `buffers`, shared with the cases before and after it (one at a time).
  HostCollective(const Case& c, MPI_Comm comm, HostBuffers& buffers);
  // One collective call; throws BackendError with MPI's error text.
  void run();
  // Fills deterministic inputs, runs once, returns this rank's mismatching elements.
  std::int64_t run_and_check();

 private:
  void take_buffers(HostBuffers& buffers);  // sizes the case's buffers from `buffers`
  void fill_for_check();
  std::int64_t count_wrong();
  bool in_place() const { return case_.placement == Placement::InPlace; }
  std::byte* input();   // where this rank's input lives
  std::byte* result();  // where this rank's result is after the call
  std::span<std::byte> elements(std::byte* base, const DataSpan& span) const;

  Case case_;
  MPI_Comm comm_;
  std::unique_ptr<HostBuffers> own_;  // the first constructor's buffers
  int rank_ = 0, nranks_ = 1;
  BufferCounts counts_;
  InPlaceOffsets in_place_offsets_;
  std::size_t element_size_;
  std::span<std::byte> send_;  // empty in place
  std::span<std::byte> recv_;  // in place, the rank's one buffer
};

}  // namespace commtune
