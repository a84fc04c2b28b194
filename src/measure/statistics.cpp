#include "measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace commtune {

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

RankInterval median_ci_ranks(std::size_t n) {
  if (n == 0) return {};
  // Normal approximation of Binomial(n, 1/2): ranks n/2 -/+ 1.96 sqrt(n)/2, clamped.
  const double half_width = 1.96 * std::sqrt(static_cast<double>(n)) / 2.0;
  const double centre = static_cast<double>(n) / 2.0;
  const auto low = static_cast<long>(std::floor(centre - half_width));
  const auto high = static_cast<long>(std::ceil(centre + half_width)) - 1;
  const long last = static_cast<long>(n) - 1;
  return {static_cast<std::size_t>(std::clamp(low, 0L, last)),
          static_cast<std::size_t>(std::clamp(high, 0L, last))};
}

SampleStats summarize(std::vector<double> samples) {
  SampleStats s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = quantile_sorted(samples, 0.5);
  s.p5 = quantile_sorted(samples, 0.05);
  s.p95 = quantile_sorted(samples, 0.95);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
  double squares = 0;
  for (double v : samples) squares += (v - s.mean) * (v - s.mean);
  s.stddev = s.count > 1 ? std::sqrt(squares / static_cast<double>(s.count - 1)) : 0.0;
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0.0;
  const RankInterval ci = median_ci_ranks(s.count);
  s.median_ci_low = samples[ci.low];
  s.median_ci_high = samples[ci.high];
  return s;
}

double relative_ci_half_width(const SampleStats& stats) {
  if (stats.median <= 0) return 0.0;
  return (stats.median_ci_high - stats.median_ci_low) / 2.0 / stats.median;
}

}  // namespace commtune
