#include "measure/bandwidth.hpp"

#include "core/collective_traits.hpp"

namespace commtune {

double algorithm_bandwidth_gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / 1e9 / seconds : 0.0;
}

double bus_bandwidth_gbps(Collective c, std::uint64_t bytes, double seconds, int nranks) {
  return algorithm_bandwidth_gbps(bytes, seconds) * traits_of(c).bus_factor(nranks);
}

}  // namespace commtune
