#include "html/number_text.hpp"

#include <cmath>
#include <cstdio>

namespace commtune::html {

std::string number(double value, int digits) {
  if (!std::isfinite(value)) return "-";
  if (value == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, digits - 1 - magnitude);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", std::min(decimals, 12), value);
  return text;
}

std::string coordinate(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", std::fabs(value) < 0.05 ? 0.0 : value);
  return text;
}

std::string binary_size(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && std::fabs(bytes) >= 1024) bytes /= 1024, ++unit;
  char text[32];
  if (bytes == std::floor(bytes))
    std::snprintf(text, sizeof text, "%.0f %s", bytes, units[unit]);
  else
    std::snprintf(text, sizeof text, "%.3g %s", bytes, units[unit]);
  return text;
}

std::string signed_percent(double fraction) {
  char text[32];
  const double percent = std::fabs(fraction) < 5e-4 ? 0.0 : fraction * 100;
  std::snprintf(text, sizeof text, percent > 0 ? "+%.1f%%" : "%.1f%%", percent);
  return text;
}

}  // namespace commtune::html
