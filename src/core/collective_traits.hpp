#pragma once
// What each collective means for sizes, buffers and bandwidth, in nccl-tests' accounting: the
// size of a case is the largest buffer (all-gather and reduce-scatter: the whole n-rank buffer),
// the printed count is per rank, and busbw = algbw x bus_factor. Both backends read buffer
// sizes and in-place positions from here; adding a collective is one row.
#include <cstddef>

#include "core/types.hpp"

namespace commtune {

// Which part of a case's elements a rank's input or result holds: all of them, or the rank's
// own share (count elements starting at rank x count). A case with shares has count x nranks
// elements; one without has count.
enum class Part { All, OwnShare };

struct CollectiveTraits {
  Collective collective;
  bool reduces;  // takes a reduction op
  bool rooted;   // takes a root rank
  Part input;    // what each rank sends
  Part result;   // what each rank receives
  double (*bus_factor)(int nranks);
};

const CollectiveTraits& traits_of(Collective c);

// Whether the size counts every rank's share (all-gather, reduce-scatter).
bool size_is_total(Collective c);

// Index, in the case's elements, of the first element of `part` on rank `rank`.
std::size_t part_start(Part part, int rank, std::size_t count);

struct BufferCounts {
  std::size_t send_elements = 0;  // per rank
  std::size_t recv_elements = 0;  // per rank
  std::size_t count = 0;          // the count the API call takes (nccl-tests' "count" column)
};

// Smallest size step for which every rank gets a whole number of elements; for all-gather and
// reduce-scatter a whole number of 16-byte units per rank, as nccl-tests rounds its rows.
std::size_t size_granularity(Collective c, DataType t, int nranks);

// Element counts of the send and receive buffers for a case of `bytes` on `nranks` ranks.
BufferCounts buffer_counts(Collective c, std::size_t bytes, DataType t, int nranks);

// Bytes of host/device memory one rank allocates for a case (send + receive buffers).
std::size_t bytes_per_rank(Collective c, std::size_t bytes, DataType t, int nranks);

// Elements a rank allocates for its separate send buffer: none in place, where the receive
// buffer is the rank's one buffer, as large as the larger of send and receive.
std::size_t send_buffer_elements(const BufferCounts& counts, Placement p);
std::size_t recv_buffer_elements(const BufferCounts& counts, Placement p);

// Where, in the in-place buffer, a rank's input lives and its result lands (element offsets).
struct InPlaceOffsets {
  std::size_t input = 0;
  std::size_t result = 0;
};

// NCCL's convention (nccl-tests' in-place offsets): the buffer holds all the case's elements and
// input and result each sit at their own part (all-gather input at rank x count, reduce-scatter
// result at rank x count).
InPlaceOffsets nccl_in_place_offsets(Collective c, int rank, std::size_t count);

// MPI_IN_PLACE: the input sits where NCCL's does; the result lands at the start of the buffer
// (reduce-scatter's too).
InPlaceOffsets mpi_in_place_offsets(Collective c, int rank, std::size_t count);

}  // namespace commtune
