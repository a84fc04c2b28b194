#pragma once
// Small printf-style formatting shared by the text writers (table, summaries, reports).
#include <cstdio>
#include <string>

namespace commtune {

// printf into a std::string; lines longer than 255 characters are cut.
template <typename... Values>
std::string printf_string(const char* pattern, Values... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

// 0.123 -> "12.3%"
inline std::string format_percent(double fraction) { return printf_string("%.1f%%", fraction * 100.0); }

}  // namespace commtune
