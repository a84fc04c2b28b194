#pragma once
// nccl-tests' bandwidth accounting: algbw = bytes / time (GB/s = 1e9 B/s), busbw = algbw x the
// collective's bus factor, so that busbw is comparable to the link rate whatever the rank count.
#include <cstdint>

#include "core/types.hpp"

namespace commtune {

double algorithm_bandwidth_gbps(std::uint64_t bytes, double seconds);
double bus_bandwidth_gbps(Collective c, std::uint64_t bytes, double seconds, int nranks);

}  // namespace commtune
