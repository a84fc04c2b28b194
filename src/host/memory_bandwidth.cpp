#include "host/memory_bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "host/prefaulted_memory.hpp"

namespace commtune {

CopyMeasurement measure_copy_bandwidth(std::size_t bytes, int copies) {
  const PrefaultedMemory from_pages(bytes), to_pages(bytes);  // no page faults inside the timing
  const std::span<char> from = from_pages.bytes(), to = to_pages.bytes();
  std::fill(from.begin(), from.end(), char{1});
  std::memcpy(to.data(), from.data(), bytes);  // one untimed copy warms the TLBs
  std::vector<double> rates;
  volatile char observed = 0;
  for (int i = 0; i < copies; ++i) {
    from[static_cast<std::size_t>(i) % bytes] =
        static_cast<char>(i);  // the copies differ: none can be elided
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(to.data(), from.data(), bytes);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    rates.push_back(static_cast<double>(bytes) / took.count() / 1e9);
    observed = observed + to[static_cast<std::size_t>(i) % bytes];  // the copy's result is used
  }
  std::nth_element(rates.begin(), rates.begin() + static_cast<long>(rates.size() / 2), rates.end());
  const double median = rates[rates.size() / 2];
  return CopyMeasurement{median, "memcpy of " + std::to_string(bytes >> 20) + " MiB, median of " +
                                     std::to_string(copies) + " copies (bytes copied / s), one thread"};
}

}  // namespace commtune
