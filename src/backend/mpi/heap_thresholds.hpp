#pragma once
// glibc's malloc thresholds held where a long-running process's own adaptation takes them, so
// that a host collective's time does not depend on what this process allocated and freed before
// the case.
//
// Some Open MPI algorithms allocate a temporary buffer in every call (Open MPI 4.1's basic_linear
// and nonoverlapping all-reduce in place). glibc serves a block at or above its mmap threshold from
// fresh pages, faulted in again on every call, and by default that threshold rises to the largest
// mmapped block freed so far (up to 32 MiB, the trim threshold twice it). So the same call's time
// depended on the process's past: on the 2-core VM, 4 ranks, an in-place basic_linear all-reduce
// of 1 MiB took 8 ms a call in a plain MPI program's loop and 0.7 ms once that program had freed a
// 2 MiB block (docs/measurements.md, 2026-12-07). In a sweep that past is the order of the cases
// and commtune's own buffers growing, so an exhaustive sweep and a raced one measured it 10x
// apart. Held at glibc's own upper limits (mmap 32 MiB, trim 64 MiB), every case sees the state a
// process reaches once it has freed a block that large, as a training job's tensors do.
//
// Where the environment sets a malloc threshold itself (MALLOC_MMAP_THRESHOLD_ and its siblings,
// or GLIBC_TUNABLES' glibc.malloc thresholds), commtune leaves malloc as set.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace commtune {

struct HeapThresholds {
  std::size_t mmap_bytes = 0;  // a block at least this large comes from mmap
  std::size_t trim_bytes = 0;  // free memory above this at the heap's top goes back to the kernel
};

// glibc's dynamic upper limits on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX, and twice it for the trim).
inline constexpr HeapThresholds kHeldHeap{.mmap_bytes = std::size_t{32} << 20,
                                          .trim_bytes = std::size_t{64} << 20};

// The variable through which `environment` (name to value, as host/launcher reads it) sets a malloc
// threshold itself (its name, or "GLIBC_TUNABLES"), if any: then the thresholds are the user's
// and are left alone.
std::optional<std::string> user_heap_setting(const std::map<std::string, std::string>& environment);

// Holds the thresholds at kHeldHeap unless `environment` sets one itself; returns what the
// results' provenance says of it (`provenance.mpi.heap`). Without an argument: this process's
// environment.
std::string hold_heap_thresholds(const std::map<std::string, std::string>& environment);
std::string hold_heap_thresholds();

}  // namespace commtune
