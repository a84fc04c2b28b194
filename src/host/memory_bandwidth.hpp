#pragma once
// The host backend's ceiling, measured: a short memcpy bandwidth test. One thread copies a
// buffer much larger than the caches, several times; the figure is the median of bytes copied
// per second (each byte read once and written once), in GB/s (10^9 bytes/s).
#include <cstddef>
#include <string>

namespace commtune {

struct CopyMeasurement {
  double gbps = 0;
  std::string method;  // "memcpy of 64 MiB, median of 7 copies (bytes copied / s), one thread"
};

CopyMeasurement measure_copy_bandwidth(std::size_t bytes = 64u << 20, int copies = 7);

}  // namespace commtune
