#pragma once
// Message sizes as nccl-tests users write them: -b/-e with binary K/M/G suffixes, -f factor
// (multiplicative when > 1) or -i additive step. Sizes are at most kMaxSizeBytes, and a range
// holds at most kMaxSizeCount sizes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace commtune {

inline constexpr std::uint64_t kMaxSizeBytes = 64ull << 30;  // 64 GiB
inline constexpr std::size_t kMaxSizeCount = 10000;
inline constexpr double kMaxSizeFactor = 1024;

struct SizeRange {
  std::uint64_t min_bytes = 8;
  std::uint64_t max_bytes = 64ull << 20;
  double factor = 2.0;           // used when > 1
  std::uint64_t step_bytes = 0;  // used when factor <= 1
};

// "8", "1K", "4M", "1G", "2KiB", "16MB": decimal digits, then an optional binary suffix K, M or G
// (x1024, x1024^2, x1024^3; B or iB may follow; any case), at most 64 GiB. Throws InputError.
std::uint64_t parse_size(std::string_view text);

// Human-readable binary size: 8 B, 4 KiB, 1.5 MiB.
std::string format_size(std::uint64_t bytes);

// Validates the range (1 <= min <= max <= 64 GiB, a factor in (1, 1024] or a step, at most
// kMaxSizeCount sizes) and throws InputError otherwise.
void validate(const SizeRange& range);

// The sizes of the range, in increasing order, min and every step up to max inclusive.
std::vector<std::uint64_t> expand(const SizeRange& range);

}  // namespace commtune
