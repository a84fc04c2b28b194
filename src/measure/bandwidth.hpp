#pragma once
// nccl-tests' bandwidth accounting: algbw = bytes / time (GB/s = 1e9 B/s), busbw = algbw x the
// collective's bus factor, so that busbw is comparable to the link rate whatever the rank count.
#include <cstdint>

#include "core/types.hpp"

namespace commtune {

// Whether a run of `nranks` moves data between ranks: one rank copies locally at most, so it
// measures no bandwidth or efficiency a user asks about, and no output shows one.
inline bool measures_bandwidth(int nranks) { return nranks >= 2; }

double algorithm_bandwidth_gbps(std::uint64_t bytes, double seconds);
double bus_bandwidth_gbps(Collective c, std::uint64_t bytes, double seconds, int nranks);

}  // namespace commtune
