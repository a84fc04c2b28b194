#pragma once
// Significance over the whole comparison: each case's verdict (tune/run_verdict.hpp) holds its own
// false-alarm rate at 1 / C(m + k, k), but a sweep of many cases would still cry wolf somewhere.
// The unit of a comparison is the pass: one run of a side's whole plan (run r of every case of a
// file). If nothing changed, the m baseline and k current passes are exchangeable, so every way of
// calling k of the m + k passes "current" is as likely as the real one. For each labelling the
// statistic is the largest margin over cases by which its "current" runs all clear its "baseline"
// runs by the threshold (lowest current / (highest baseline x (1 + t)) - 1); the p-value is the
// share of labellings whose statistic reaches the real one's (a permutation test of the max over
// cases, so the rate at which any case is called SLOWER is held for any number of cases and any
// correlation between them). Every labelling when there are at most kExactLabellings, else a fixed
// pseudo-random sample of them (the same input gives the same p-value).
#include <cstddef>
#include <vector>

#include "tune/run_verdict.hpp"

namespace commtune {

// At most this many labellings are enumerated; beyond, kSampledLabellings are drawn.
inline constexpr std::size_t kExactLabellings = 10000;
inline constexpr std::size_t kSampledLabellings = 9999;

struct PassCase {
  const CaseRuns* baseline = nullptr;  // pass ids in 0..baseline_passes-1
  const CaseRuns* current = nullptr;   // pass ids in 0..current_passes-1
  double widening = 0;                 // the case's baseline band widened by this (its verdict's)
};

struct Significance {
  double slower_p = 1, faster_p = 1;  // share of labellings at least as extreme as the real one
  double least_p = 1;                 // the smallest p-value these passes can give: 1 / C(m + k, k)
  std::size_t labellings = 0;         // how many the p-values are over (the real one included)
  bool exact = true;                  // every labelling (false: a sample)
};

// Throws Error when a case has a pass id outside its side's passes or no runs on a side.
Significance comparison_significance(const std::vector<PassCase>& cases, std::size_t baseline_passes,
                                     std::size_t current_passes, double threshold);

}  // namespace commtune
