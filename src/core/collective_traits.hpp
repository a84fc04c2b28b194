#pragma once
// What each collective means for sizes and bandwidth, in nccl-tests' accounting: the size of a
// case is the largest buffer (all-gather and reduce-scatter: the whole n-rank buffer), the
// printed count is per rank, and busbw = algbw x bus_factor. Adding a collective is one row.
#include <cstddef>

#include "core/types.hpp"

namespace commtune {

struct BufferCounts {
  std::size_t send_elements = 0;  // per rank
  std::size_t recv_elements = 0;  // per rank
  std::size_t count = 0;          // the count the API call takes (nccl-tests' "count" column)
};

struct CollectiveTraits {
  Collective collective;
  bool reduces;            // takes a reduction op
  bool rooted;             // takes a root rank
  bool size_is_total;      // size counts every rank's share (all-gather, reduce-scatter)
  double (*bus_factor)(int nranks);
};

const CollectiveTraits& traits_of(Collective c);

// Smallest size step for which every rank gets a whole number of elements.
std::size_t size_granularity(Collective c, DataType t, int nranks);

// Element counts of the send and receive buffers for a case of `bytes` on `nranks` ranks.
BufferCounts buffer_counts(Collective c, std::size_t bytes, DataType t, int nranks);

// Bytes of host/device memory one rank allocates for a case (send + receive buffers).
std::size_t bytes_per_rank(Collective c, std::size_t bytes, DataType t, int nranks);

}  // namespace commtune
