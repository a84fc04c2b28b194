#pragma once
// nccl-tests' bandwidth accounting: algbw = bytes / time (GB/s = 1e9 B/s), busbw = algbw x the
// collective's bus factor, so that busbw is comparable to the link rate whatever the rank count.
#include <cstdint>

#include "core/collective_traits.hpp"
#include "core/types.hpp"

namespace commtune {

// Whether a run of `nranks` moves data between ranks: one rank copies locally at most, so it
// measures no bandwidth or efficiency a user asks about, and no output shows one.
inline bool measures_bandwidth(int nranks) { return nranks >= 2; }

inline double algorithm_bandwidth_gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / 1e9 / seconds : 0.0;
}

inline double bus_bandwidth_gbps(Collective c, std::uint64_t bytes, double seconds, int nranks) {
  return algorithm_bandwidth_gbps(bytes, seconds) * traits_of(c).bus_factor(nranks);
}

}  // namespace commtune
