#pragma once
// One axis of a plot: its scale (linear, log10, or log2 over byte sizes), its range, where a value
// lands in pixels, and its ticks with their labels. Log2 byte axes tick at powers of two with
// binary labels (8 B ... 16 GiB), log10 axes at decades, linear axes at 1-2-5 steps.
#include <string>
#include <vector>

namespace commtune::html {

enum class Scale { Linear, Log10, Log2Bytes };

struct Tick {
  double value = 0;
  std::string label;
};

struct Axis {
  Scale scale = Scale::Linear;
  double lo = 0, hi = 1;           // data range shown; log scales need lo > 0
  std::string label;               // "busbw (GB/s)"
  std::vector<Tick> categories{};  // a category axis (one bar per setting): these ticks, as given

  // 0 at lo, 1 at hi (values outside give outside fractions).
  double fraction(double value) const;
  std::vector<Tick> ticks(std::size_t max_ticks = 10) const;
};

// An axis that covers [min_value, max_value] with room at the ends: a linear axis from 0 (or
// below, for negative data) to a round value, a log axis from the decade or power of two below to
// the one above.
Axis fitted_axis(Scale scale, double min_value, double max_value, std::string label);

}  // namespace commtune::html
