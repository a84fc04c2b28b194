#pragma once
// Durations as a job script writes them (--budget): "90s", "15m", "1h30m", "2h", "1.5h", or a
// bare number of seconds; at most kMaxDurationSeconds.
#include <string>
#include <string_view>

namespace commtune {

inline constexpr double kMaxDurationSeconds = 7 * 24 * 3600.0;  // a week

// Seconds, above 0. Each part is a decimal number followed by h, m or s (the last part may omit
// the unit: seconds); units in decreasing order, each at most once. Throws InputError.
double parse_duration(std::string_view text);

// Whole seconds as text: "45s", "14m50s", "2h05m".
std::string format_duration(double seconds);

}  // namespace commtune
