#pragma once
// Summary statistics of a set of per-iteration times, as pure functions. No normality is
// assumed: the median's confidence interval comes from order statistics (binomial method).
#include <cstddef>
#include <span>
#include <vector>

namespace commtune {

struct SampleStats {
  std::size_t count = 0;
  double median = 0, mean = 0, min = 0, max = 0, p5 = 0, p95 = 0, stddev = 0;
  double cv = 0;                                 // stddev / mean
  double median_ci_low = 0, median_ci_high = 0;  // ~95% distribution-free interval
};

// Linear-interpolated quantile (q in [0,1]) of sorted values.
double quantile_sorted(std::span<const double> sorted, double q);

// Ranks (0-based, into sorted values) bounding a ~95% confidence interval of the median.
struct RankInterval {
  std::size_t low = 0, high = 0;
};
RankInterval median_ci_ranks(std::size_t n);

SampleStats summarize(std::vector<double> samples);

// Half-width of the median's confidence interval relative to the median: the stopping rule's
// measure of how precisely the median is known.
double relative_ci_half_width(const SampleStats& stats);

}  // namespace commtune
