#pragma once
// The bounds every reader of commtune's files (and nccl-tests' JSON) holds a value to: beyond
// them a file is damaged or made up, and is refused with the value's path.
#include <cmath>
#include <cstdint>

namespace commtune {

inline constexpr double kMaxPlausibleTimeUs = 1e10;          // ~2.8 hours per iteration
inline constexpr std::int64_t kMaxPlausibleCount = 1 << 24;  // ranks, hosts, threads, GPUs, sizes in a range
inline constexpr double kWriterRoundingSlack = 1e-9;         // relative: a writer's own rounding

// a <= b, give or take a writer's own rounding (an interval's ends as written and read back).
inline bool at_most(double a, double b) { return a <= b + kWriterRoundingSlack * std::abs(b); }

}  // namespace commtune
