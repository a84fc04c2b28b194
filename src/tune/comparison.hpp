#pragma once
// How one measured case compares with another (candidate vs baseline), from the summaries a
// results file keeps: medians and their distribution-free ~95% confidence intervals. A
// difference counts statistically only when the two intervals do not overlap (Hoefler & Belli),
// and practically only when it exceeds a margin and the measured noise floor.
#include "measure/statistics.hpp"

namespace commtune {

struct Comparison {
  double baseline_us = 0;   // baseline median
  double candidate_us = 0;  // candidate median
  double change = 0;        // (candidate - baseline) / baseline: negative is faster
  bool disjoint_faster = false;  // candidate CI entirely below the baseline CI
  bool disjoint_slower = false;  // candidate CI entirely above the baseline CI
  double noise_floor = 0;   // larger relative CI half-width of the two medians
};

Comparison compare_stats(const SampleStats& baseline, const SampleStats& candidate);

// Time saved relative to the baseline (positive: candidate faster).
inline double gain_of(const Comparison& c) { return -c.change; }

// The bar a difference must clear to count: max(margin, noise floor).
double practical_threshold(const Comparison& c, double min_margin);

// The tuner rule: statistically faster (disjoint CIs) and by at least the practical threshold.
bool clearly_faster(const Comparison& c, double min_margin);
bool clearly_slower(const Comparison& c, double min_margin);

}  // namespace commtune
