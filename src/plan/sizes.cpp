#include "plan/sizes.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/errors.hpp"

namespace commtune {
namespace {

std::uint64_t suffix_multiplier(std::string_view suffix, std::string_view whole) {
  std::string s;
  for (char c : suffix) s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s.empty() || s == "B") return 1;
  const char unit = s[0];
  const std::string rest = s.substr(1);
  if (!(rest.empty() || rest == "B" || rest == "IB"))
    throw InputError("bad size '" + std::string(whole) + "': unknown suffix '" + std::string(suffix) + "'");
  switch (unit) {
    case 'K': return 1ull << 10;
    case 'M': return 1ull << 20;
    case 'G': return 1ull << 30;
    case 'T': return 1ull << 40;
    default: throw InputError("bad size '" + std::string(whole) + "': unknown suffix '" + std::string(suffix) + "'");
  }
}

}  // namespace

std::uint64_t parse_size(std::string_view text) {
  std::uint64_t number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const auto [next, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || next == begin)
    throw InputError("bad size '" + std::string(text) + "': expected a number with an optional K/M/G suffix");
  const std::uint64_t multiplier = suffix_multiplier(std::string_view(next, end - next), text);
  if (number > std::numeric_limits<std::uint64_t>::max() / multiplier)
    throw InputError("bad size '" + std::string(text) + "': too large");
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

void validate(const SizeRange& range) {
  if (range.min_bytes == 0) throw InputError("minimum size (-b) must be at least 1 byte");
  if (range.min_bytes > range.max_bytes)
    throw InputError("minimum size (-b " + std::to_string(range.min_bytes) + ") is larger than maximum size (-e " +
                     std::to_string(range.max_bytes) + ")");
  if (!std::isfinite(range.factor) || range.factor < 0)
    throw InputError("step factor (-f) must be a positive number");
  if (range.factor <= 1.0 && range.step_bytes == 0 && range.min_bytes != range.max_bytes)
    throw InputError("give a step factor > 1 (-f) or an additive step (-i) to go from -b to -e");
}

std::vector<std::uint64_t> expand(const SizeRange& range) {
  validate(range);
  std::vector<std::uint64_t> sizes;
  std::uint64_t size = range.min_bytes;
  while (size <= range.max_bytes) {
    sizes.push_back(size);
    const double grown = range.factor > 1.0 ? std::floor(static_cast<double>(size) * range.factor)
                                            : static_cast<double>(size + range.step_bytes);
    if (grown <= static_cast<double>(size) || grown > static_cast<double>(range.max_bytes)) break;
    size = static_cast<std::uint64_t>(grown);
  }
  return sizes;
}

}  // namespace commtune
