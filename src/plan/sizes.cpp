#include "plan/sizes.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

std::string bad_size(std::string_view whole) { return "bad size " + quote_text(whole); }

std::uint64_t suffix_multiplier(std::string_view suffix, std::string_view whole) {
  std::string s;
  for (char c : suffix) s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s.empty() || s == "B") return 1;
  const char unit = s[0];
  const std::string rest = s.substr(1);
  const bool known =
      (unit == 'K' || unit == 'M' || unit == 'G') && (rest.empty() || rest == "B" || rest == "IB");
  if (!known)
    throw InputError(bad_size(whole) + ": unknown suffix " + quote_text(suffix) + " (K, M or G: binary)");
  return unit == 'K' ? 1ull << 10 : unit == 'M' ? 1ull << 20 : 1ull << 30;
}

}  // namespace

std::uint64_t parse_size(std::string_view text) {
  std::uint64_t number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const auto [next, ec] = std::from_chars(begin, end, number);
  if (ec == std::errc::result_out_of_range) throw InputError(bad_size(text) + ": above the 64 GiB limit");
  if (ec != std::errc() || next == begin)
    throw InputError(bad_size(text) + ": expected a number with an optional K/M/G suffix");
  const std::uint64_t multiplier = suffix_multiplier(std::string_view(next, end - next), text);
  if (number > kMaxSizeBytes / multiplier) throw InputError(bad_size(text) + ": above the 64 GiB limit");
  return number * multiplier;
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[32];
  if (value == std::floor(value))
    std::snprintf(buffer, sizeof buffer, "%.0f %s", value, kUnits[unit]);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f %s", value, kUnits[unit]);
  return buffer;
}

namespace {

// The size after `size`: multiplied by the factor (always growing by at least a byte) or stepped.
double next_size(const SizeRange& range, std::uint64_t size) {
  if (range.factor > 1.0)
    return std::max(std::floor(static_cast<double>(size) * range.factor), static_cast<double>(size) + 1.0);
  return static_cast<double>(size) + static_cast<double>(range.step_bytes);
}

std::size_t count_sizes(const SizeRange& range, std::size_t limit) {
  std::size_t count = 0;
  for (double size = static_cast<double>(range.min_bytes);
       size <= static_cast<double>(range.max_bytes) && count <= limit; ++count) {
    const double grown = next_size(range, static_cast<std::uint64_t>(size));
    if (grown <= size) return count + 1;
    size = grown;
  }
  return count;
}

}  // namespace

void validate(const SizeRange& range) {
  if (range.min_bytes == 0) throw InputError("minimum size (-b / min_bytes) must be at least 1 byte");
  if (range.max_bytes > kMaxSizeBytes || range.step_bytes > kMaxSizeBytes)
    throw InputError("sizes (-b, -e, -i) must be at most 64 GiB");
  if (range.min_bytes > range.max_bytes)
    throw InputError("minimum size " + format_size(range.min_bytes) +
                     " (-b / min_bytes) is above the maximum size " + format_size(range.max_bytes) +
                     " (-e / max_bytes)");
  if (!std::isfinite(range.factor) || range.factor < 0 || range.factor > kMaxSizeFactor)
    throw InputError("step factor (-f / factor) must be a number above 1, at most 1024");
  if (range.factor <= 1.0 && range.step_bytes == 0 && range.min_bytes != range.max_bytes)
    throw InputError(
        "give a step factor > 1 (-f / factor) or an additive step (-i / step_bytes) to go from -b to -e");
  if (count_sizes(range, kMaxSizeCount) > kMaxSizeCount)
    throw InputError("-b, -e and the step give more than " + std::to_string(kMaxSizeCount) + " sizes");
}

std::vector<std::uint64_t> expand(const SizeRange& range) {
  validate(range);
  std::vector<std::uint64_t> sizes;
  std::uint64_t size = range.min_bytes;
  while (size <= range.max_bytes) {
    sizes.push_back(size);
    const double grown = next_size(range, size);
    if (grown <= static_cast<double>(size) || grown > static_cast<double>(range.max_bytes)) break;
    size = static_cast<std::uint64_t>(grown);
  }
  return sizes;
}

}  // namespace commtune
