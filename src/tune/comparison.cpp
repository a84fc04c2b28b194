#include "tune/comparison.hpp"

#include <algorithm>

namespace commtune {

Comparison compare_stats(const SampleStats& baseline, const SampleStats& candidate) {
  Comparison c;
  c.baseline_us = baseline.median;
  c.candidate_us = candidate.median;
  c.change = baseline.median > 0 ? (candidate.median - baseline.median) / baseline.median : 0.0;
  c.disjoint_faster = candidate.median_ci_high < baseline.median_ci_low;
  c.disjoint_slower = candidate.median_ci_low > baseline.median_ci_high;
  c.noise_floor = std::max(relative_ci_half_width(baseline), relative_ci_half_width(candidate));
  return c;
}

double practical_threshold(const Comparison& c, double min_margin) { return std::max(min_margin, c.noise_floor); }

bool clearly_faster(const Comparison& c, double min_margin) {
  return c.disjoint_faster && gain_of(c) >= practical_threshold(c, min_margin);
}

bool clearly_slower(const Comparison& c, double min_margin) {
  return c.disjoint_slower && c.change >= practical_threshold(c, min_margin);
}

}  // namespace commtune
