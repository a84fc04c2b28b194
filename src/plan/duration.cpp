#include "plan/duration.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "core/text_format.hpp"

namespace commtune {
namespace {

[[noreturn]] void bad_duration(std::string_view text, const std::string& why) {
  throw InputError("bad duration " + quote_text(std::string(text)) + ": " + why +
                   " (e.g. 90s, 15m, 1h30m, 1.5h)");
}

double unit_seconds(char unit) {
  switch (unit) {
    case 'h':
    case 'H':
      return 3600;
    case 'm':
    case 'M':
      return 60;
    default:
      return 1;  // 's', 'S' or none
  }
}

// The length of the number at the start of `rest`: digits with at most one '.'.
std::size_t number_length(std::string_view rest) {
  std::size_t n = 0;
  bool dot = false;
  while (n < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[n])) || (rest[n] == '.' && !dot))) {
    dot = dot || rest[n] == '.';
    ++n;
  }
  return n;
}

}  // namespace

double parse_duration(std::string_view text) {
  if (text.empty()) bad_duration(text, "empty");
  double total = 0;
  double last_unit = 1e9;  // units must decrease: h, then m, then s
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t n = number_length(rest);
    if (n == 0 || (n == 1 && rest[0] == '.')) bad_duration(text, "expected a number");
    double value = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + n, value);
    if (ec != std::errc() || end != rest.data() + n) bad_duration(text, "expected a number");
    rest.remove_prefix(n);
    char unit = 's';
    if (!rest.empty()) {
      unit = rest[0];
      if (std::string_view("hHmMsS").find(unit) == std::string_view::npos)
        bad_duration(text, "units are h, m and s");
      rest.remove_prefix(1);
    }
    const double seconds = unit_seconds(unit);
    if (seconds >= last_unit) bad_duration(text, "units go h, m, s, each once");
    last_unit = seconds;
    total += value * seconds;
  }
  if (!(total > 0)) bad_duration(text, "must be above 0");
  if (total > kMaxDurationSeconds) bad_duration(text, "at most a week");
  return total;
}

std::string format_duration(double seconds) {
  const long long whole = std::llround(std::max(0.0, seconds));
  if (whole < 60) return printf_string("%llds", whole);
  if (whole < 3600) return printf_string("%lldm%02llds", whole / 60, whole % 60);
  return printf_string("%lldh%02lldm", whole / 3600, (whole % 3600) / 60);
}

}  // namespace commtune
