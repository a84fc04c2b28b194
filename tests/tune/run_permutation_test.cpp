// The whole comparison's permutation test over passes (tune/run_permutation.hpp): exact p-values on
// small hand-made cases, the sampled path, bad pass ids; and through compare_results, the
// false-alarm rate over a noisy 10-case series where each case's own rank rule alone would cry
// wolf (this machine's noise: 30% per case, 20% run-wide), and the power that remains.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "core/errors.hpp"
#include "tune/regression_compare.hpp"
#include "tune/run_permutation.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

CaseRuns runs_of(std::vector<double> us) {
  CaseRuns out;
  out.run_us = std::move(us);
  for (std::size_t i = 0; i < out.run_us.size(); ++i) out.pass.push_back(i);
  return out;
}

TEST(RunPermutation, ACleanSeparationOfThreeAgainstThreeHasTheLeastPValue) {
  const CaseRuns base = runs_of({100, 102, 101}), cur = runs_of({150, 149, 151});
  const Significance s = comparison_significance({{&base, &cur}}, 3, 3, 0.05);
  EXPECT_TRUE(s.exact);
  EXPECT_EQ(s.labellings, 20u);
  EXPECT_DOUBLE_EQ(s.least_p, 1.0 / 20);
  EXPECT_DOUBLE_EQ(s.slower_p, 1.0 / 20);  // only the real labelling puts every "current" run above
  EXPECT_GT(s.faster_p, 0.5);
}

TEST(RunPermutation, OverlappingRunsAreNotSignificant) {
  const CaseRuns base = runs_of({100, 140, 101}), cur = runs_of({150, 120, 151});
  const Significance s = comparison_significance({{&base, &cur}}, 3, 3, 0.05);
  EXPECT_GT(s.slower_p, kComparisonAlpha);
}

TEST(RunPermutation, CorrelatedCasesCostNothing) {
  // Ten identical copies of one clean case: still p = 1/20 (no Bonferroni penalty for correlation).
  const CaseRuns base = runs_of({100, 102, 101}), cur = runs_of({150, 149, 151});
  std::vector<PassCase> same(10, PassCase{&base, &cur});
  EXPECT_DOUBLE_EQ(comparison_significance(same, 3, 3, 0.05).slower_p, 1.0 / 20);
}

TEST(RunPermutation, ARealSpeedUpRelabelledLooksLikeASlowdown) {
  // +20% in one case, 3x faster in another: relabelled, the speed-up is a bigger "slowdown" than
  // the real one, so over both cases the slowdown is not the most extreme labelling.
  const CaseRuns mild_base = runs_of({100, 100, 100, 100}), mild_cur = runs_of({120, 120, 120, 120});
  const CaseRuns fast_base = runs_of({300, 300, 300, 300}), fast_cur = runs_of({100, 100, 100, 100});
  const Significance both =
      comparison_significance({{&mild_base, &mild_cur}, {&fast_base, &fast_cur}}, 4, 4, 0.05);
  EXPECT_DOUBLE_EQ(both.slower_p, 2.0 / 70);
  EXPECT_DOUBLE_EQ(both.faster_p, 1.0 / 70);
  EXPECT_DOUBLE_EQ(comparison_significance({{&mild_base, &mild_cur}}, 4, 4, 0.05).slower_p, 1.0 / 70);
}

TEST(RunPermutation, ManyPassesAreSampledDeterministically) {
  std::vector<double> low, high;
  for (int i = 0; i < 10; ++i) {
    low.push_back(100 + i);
    high.push_back(200 + i);
  }
  const CaseRuns base = runs_of(low), cur = runs_of(high);
  const Significance a = comparison_significance({{&base, &cur}}, 10, 10, 0.05);
  const Significance b = comparison_significance({{&base, &cur}}, 10, 10, 0.05);
  EXPECT_FALSE(a.exact);  // C(20, 10) = 184756 labellings
  EXPECT_EQ(a.labellings, kSampledLabellings + 1);
  EXPECT_DOUBLE_EQ(a.slower_p, 1.0 / static_cast<double>(kSampledLabellings + 1));
  EXPECT_DOUBLE_EQ(a.slower_p, b.slower_p);
}

TEST(RunPermutation, MissingPassesAndBadPassIds) {
  CaseRuns base = runs_of({100, 101, 102}), cur = runs_of({150, 151});  // an interrupted current file
  EXPECT_NO_THROW(comparison_significance({{&base, &cur}}, 3, 3, 0.05));
  cur.pass = {0, 3};
  EXPECT_THROW(comparison_significance({{&base, &cur}}, 3, 3, 0.05), Error);
  cur.pass = {0};
  EXPECT_THROW(comparison_significance({{&base, &cur}}, 3, 3, 0.05), Error);
}

struct Tally {
  int alarms = 0;          // comparisons that exit 1
  int per_case_alone = 0;  // comparisons where some case's own runs said SLOWER
};

Tally tally(int trials, std::size_t runs, double drift, double sigma, double shift, std::uint64_t from,
            unsigned seed) {
  std::mt19937 rng(seed);
  Tally t;
  for (int i = 0; i < trials; ++i) {
    const ResultsDocument base = testing::series_run(rng, runs, drift, sigma, 0, 0);
    const ResultsDocument cur = testing::series_run(rng, runs, drift, sigma, shift, from);
    // One file a side, but the synthetic passes share no launch conditions: --run-noise 0.
    const CompareReport report = compare_results(base, cur, CompareOptions{0.05, 0});
    t.alarms += report.regression();
    bool any = report.regression();
    for (const auto& c : report.cases) any = any || c.note.rfind("SLOWER on its own runs", 0) == 0;
    t.per_case_alone += any;
  }
  return t;
}

TEST(RunPermutation, NoisySeriesAaFalseAlarmsAtMostTheComparisonsRate) {
  // 400 A/A comparisons of 4 + 4 passes: at most 18 exit 1 (the 99th percentile of 400 draws at
  // 2.5%, and 4.5% < 5%), while each case's own rank rule alone would alarm in more than 5% of them.
  for (unsigned seed : {21u, 22u}) {
    const Tally t = tally(400, 4, 0.20, 0.30, 0, 0, seed);
    EXPECT_LE(t.alarms, 18) << "seed " << seed;
    EXPECT_GT(t.per_case_alone, 20) << "seed " << seed;
  }
  EXPECT_LE(tally(400, 6, 0.20, 0.30, 0, 0, 23).alarms, 18);
}

TEST(RunPermutation, NoisySeriesKeepsItsPower) {
  // The three largest sizes 3x slower (basic_linear's 4 MiB on this VM): found in >= 95%.
  EXPECT_GE(tally(200, 4, 0.10, 0.15, 2.0, 1u << 20, 24).alarms, 190);
  EXPECT_GE(tally(200, 6, 0.20, 0.30, 3.0, 1u << 20, 25).alarms, 190);
}

TEST(RunPermutation, ASpeedUpElsewhereDoesNotHideASlowdown) {
  // Small sizes 3x faster, the three largest 30% slower, 4 + 4 passes, 2% noise: both found.
  std::mt19937 rng(26);
  ResultsDocument base = testing::series_run(rng, 4, 0, 0.02, 0, 0),
                  cur = testing::series_run(rng, 4, 0, 0.02, 0.30, 1u << 20);
  for (auto& c : cur.cases)
    if (c.spec.bytes < (1u << 20))
      for (double& m : c.run_medians_us) m /= 3;
  const CompareReport report = compare_results(base, cur, CompareOptions{0.05, 0});
  EXPECT_EQ(report.count(Verdict::Slower), 6u);
  EXPECT_EQ(report.count(Verdict::Faster), 4u);
  ASSERT_TRUE(report.significance.has_value());
  EXPECT_DOUBLE_EQ(report.significance->slower_p, 1.0 / 70);
}

TEST(RunPermutation, OneLaunchASideIsWidenedByTheLaunchNoise) {
  // Four tight runs a side, but one file each: a whole launch 20% slower (its ranks placed worse)
  // is inside the default launch noise, AMBIGUOUS; twice as slow is beyond it, SLOWER.
  std::mt19937 rng(27);
  const ResultsDocument base = testing::series_run(rng, 4, 0, 0.01, 0, 0);
  const auto scaled = [&](double factor) {
    ResultsDocument cur = base;
    for (auto& c : cur.cases)
      for (double& m : c.run_medians_us) m *= factor;
    return cur;
  };
  const CompareReport moved = compare_results(base, scaled(1.2), CompareOptions{0.05});
  EXPECT_TRUE(moved.any_widened());
  EXPECT_FALSE(moved.regression());
  const CompareReport slower = compare_results(base, scaled(2.0), CompareOptions{0.05});
  EXPECT_TRUE(slower.regression());
  EXPECT_EQ(slower.count(Verdict::Slower), slower.cases.size());
}

}  // namespace
}  // namespace commtune
