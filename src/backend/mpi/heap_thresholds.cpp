#include "backend/mpi/heap_thresholds.hpp"

#include <malloc.h>

#include <array>
#include <cstdlib>
#include <string_view>

namespace commtune {
namespace {

// glibc's environment variables that set a threshold, and the tunables that do the same.
constexpr std::array<const char*, 4> kMallocVariables{"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
                                                      "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"};
constexpr std::array<std::string_view, 4> kMallocTunables{"glibc.malloc.mmap_threshold",
                                                          "glibc.malloc.trim_threshold",
                                                          "glibc.malloc.top_pad", "glibc.malloc.mmap_max"};

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::optional<std::string> user_heap_setting(const std::map<std::string, std::string>& environment) {
  for (const char* name : kMallocVariables)
    if (environment.contains(name)) return std::string(name);
  const auto tunables = environment.find("GLIBC_TUNABLES");
  if (tunables == environment.end()) return std::nullopt;
  for (std::string_view tunable : kMallocTunables)
    if (tunables->second.find(tunable) != std::string::npos) return std::string("GLIBC_TUNABLES");
  return std::nullopt;
}

std::string hold_heap_thresholds(const std::map<std::string, std::string>& environment) {
  if (const auto variable = user_heap_setting(environment))
    return "glibc malloc thresholds as the environment sets them (" + *variable + ")";
  // Both: once either is set glibc stops moving the other, and a trim threshold left at its
  // 128 KiB default would hand a freed temporary's pages back at once.
  if (mallopt(M_TRIM_THRESHOLD, static_cast<int>(kHeldHeap.trim_bytes)) != 1 ||
      mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeldHeap.mmap_bytes)) != 1)
    return "glibc malloc thresholds not held: mallopt refused (a collective that allocates per call "
           "may time differently by case order)";
  return "glibc malloc thresholds held by commtune: mmap " + mib(kHeldHeap.mmap_bytes) + ", trim " +
         mib(kHeldHeap.trim_bytes) + " (docs/statistics.md)";
}

std::string hold_heap_thresholds() {
  std::map<std::string, std::string> environment;  // only the variables user_heap_setting reads
  for (const char* name : kMallocVariables)
    if (const char* value = std::getenv(name)) environment.emplace(name, value);
  if (const char* value = std::getenv("GLIBC_TUNABLES")) environment.emplace("GLIBC_TUNABLES", value);
  return hold_heap_thresholds(environment);
}

}  // namespace commtune
