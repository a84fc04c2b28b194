#include "html/axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "html/number_text.hpp"

namespace commtune::html {
namespace {

double transformed(Scale scale, double value) {
  if (scale == Scale::Log10) return std::log10(std::max(value, 1e-300));
  if (scale == Scale::Log2Bytes) return std::log2(std::max(value, 1e-300));
  return value;
}

// The 1-2-5 step that gives at most `max_ticks` ticks over `span`.
double nice_step(double span, std::size_t max_ticks) {
  const double raw = span / static_cast<double>(std::max<std::size_t>(max_ticks - 1, 1));
  const double decade = std::pow(10, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) return m * decade;
  return 10 * decade;
}

// A tick's value with the decimals its step needs and no more: 0.02, 0.04 (not 0.0200).
std::string tick_text(double v, double step) {
  if (v == 0) return "0";
  const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", std::min(decimals, 12), v);
  return text;
}

std::vector<Tick> linear_ticks(double lo, double hi, std::size_t max_ticks) {
  std::vector<Tick> ticks;
  if (!(hi > lo)) return ticks;
  const double step = nice_step(hi - lo, max_ticks);
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; ++k) {
    const double v = std::fabs(k * step) < step * 1e-9 ? 0.0 : k * step;
    ticks.push_back({v, tick_text(v, step)});
  }
  return ticks;
}

// Every `stride`-th power of `base` between lo and hi, stride growing until they fit.
std::vector<Tick> power_ticks(Scale scale, double lo, double hi, std::size_t max_ticks) {
  const double base = scale == Scale::Log2Bytes ? 2 : 10;
  const int first = static_cast<int>(std::ceil(transformed(scale, lo) - 1e-9));
  const int last = static_cast<int>(std::floor(transformed(scale, hi) + 1e-9));
  int stride = 1;
  while (last >= first && static_cast<std::size_t>((last - first) / stride + 1) > max_ticks) ++stride;
  std::vector<Tick> ticks;
  for (int e = first; e <= last; e += stride) {
    const double v = std::pow(base, e);
    ticks.push_back({v, scale == Scale::Log2Bytes ? binary_size(v) : number(v, 1)});
  }
  return ticks;
}

}  // namespace

double Axis::fraction(double value) const {
  const double a = transformed(scale, lo), b = transformed(scale, hi);
  return b > a ? (transformed(scale, value) - a) / (b - a) : 0.5;
}

std::vector<Tick> Axis::ticks(std::size_t max_ticks) const {
  if (!categories.empty()) return categories;
  if (scale == Scale::Linear) return linear_ticks(lo, hi, max_ticks);
  return power_ticks(scale, lo, hi, max_ticks);
}

Axis fitted_axis(Scale scale, double min_value, double max_value, std::string label) {
  if (scale == Scale::Linear) {
    const double lo = std::min(0.0, min_value), hi = std::max({0.0, max_value, lo + 1e-12});
    const double step = nice_step(hi - lo > 0 ? hi - lo : 1, 6);
    return Axis{scale, std::floor(lo / step) * step, std::ceil(hi / step) * step, std::move(label)};
  }
  const double base = scale == Scale::Log2Bytes ? 2 : 10;
  const double lo = min_value > 0 ? min_value : 1;
  const double hi = std::max(max_value, lo);
  const double a = std::floor(transformed(scale, lo) + 1e-9), b = std::ceil(transformed(scale, hi) - 1e-9);
  return Axis{scale, std::pow(base, a), std::pow(base, b > a ? b : a + 1), std::move(label)};
}

}  // namespace commtune::html
