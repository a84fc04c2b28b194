// The compare rule on synthetic runs with a known between-run spread and a known shift: the
// false-alarm rate of A/A comparisons (200 trials, at most 5% SLOWER) and the power to find a
// real slowdown (at least 95%), per case and over a whole size series with run-wide drift; the
// widening for single-run sides; the lone-size rule and the size ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tune/regression_compare.hpp"
#include "tune/run_verdict.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

constexpr int kTrials = 200;

// `runs` run medians around `center`, each off by a lognormal factor of spread `sigma`.
CaseRuns draw(std::mt19937& rng, std::size_t runs, double center, double sigma) {
  std::normal_distribution<double> noise(0, sigma);
  CaseRuns out;
  for (std::size_t i = 0; i < runs; ++i) out.run_us.push_back(center * std::exp(noise(rng)));
  return out;
}

int count_verdicts(std::size_t m, std::size_t k, double sigma, double shift, Verdict wanted,
                   const RunRule& rule, unsigned seed) {
  std::mt19937 rng(seed);
  int hits = 0;
  for (int t = 0; t < kTrials; ++t)
    hits += runs_verdict(draw(rng, m, 100, sigma), draw(rng, k, 100 * (1 + shift), sigma), rule).verdict ==
            wanted;
  return hits;
}

TEST(RunVerdict, OrderingsCountTheRankTest) {
  EXPECT_DOUBLE_EQ(run_orderings(3, 3), 20);
  EXPECT_DOUBLE_EQ(run_orderings(1, 1), 2);
  EXPECT_DOUBLE_EQ(run_orderings(5, 2), 21);
  EXPECT_DOUBLE_EQ(run_orderings(19, 1), 20);
}

TEST(RunVerdict, AaFalseAlarmsAtMostFivePercentWithThreeRunsEachSide) {
  // 10% between-run spread, twice the threshold: the range of the baseline runs carries it.
  const RunRule rule{0.05, kDefaultRunNoise};
  for (unsigned seed : {1u, 2u, 3u})
    EXPECT_LE(count_verdicts(3, 3, 0.10, 0, Verdict::Slower, rule, seed), kTrials / 20);
  EXPECT_LE(count_verdicts(5, 5, 0.30, 0, Verdict::Slower, rule, 4), kTrials / 20);
}

TEST(RunVerdict, FindsAClearSlowdownInAtLeast95Percent) {
  const RunRule rule{0.05, kDefaultRunNoise};
  // +60% against a 10% spread, 4 runs a side: every current run above the slowest baseline run.
  EXPECT_GE(count_verdicts(4, 4, 0.10, 0.60, Verdict::Slower, rule, 5), kTrials * 95 / 100);
  EXPECT_GE(count_verdicts(5, 5, 0.05, 0.30, Verdict::Slower, rule, 6), kTrials * 95 / 100);
  // The mirror image.
  EXPECT_GE(count_verdicts(4, 4, 0.10, -0.40, Verdict::Faster, rule, 7), kTrials * 95 / 100);
}

TEST(RunVerdict, AShiftInsideTheSpreadIsNotSlower) {
  // +10% with a 10% spread and 3 runs each side: the runs overlap, so most such cases are not SLOWER.
  const RunRule rule{0.05, kDefaultRunNoise};
  EXPECT_LE(count_verdicts(3, 3, 0.10, 0.10, Verdict::Slower, rule, 8), kTrials / 4);
}

TEST(RunVerdict, SingleRunSidesAreWidenedAndPreferAmbiguous) {
  const RunRule rule{0.05, 0.25};
  CaseRuns base{{100}, 99, 101}, cur{{130}, 129, 131};
  RunsVerdict j = runs_verdict(base, cur, rule);
  EXPECT_TRUE(j.widened);
  EXPECT_EQ(j.verdict, Verdict::Ambiguous);  // +30%: beyond the threshold, inside the default noise
  EXPECT_NEAR(j.change, 0.30, 1e-12);
  EXPECT_LT(j.change_low, 0.05);
  cur = {{200}, 198, 202};
  EXPECT_EQ(runs_verdict(base, cur, rule).verdict, Verdict::Slower);  // x2: beyond noise and threshold
  // Without the default noise, the old rule: disjoint intervals and a change beyond the threshold.
  cur = {{130}, 129, 131};
  EXPECT_EQ(runs_verdict(base, cur, RunRule{0.05, 0}).verdict, Verdict::Slower);
  // A/A with single runs and a 10% spread: SLOWER in at most 5% (the default noise covers ~2 sigma).
  EXPECT_LE(count_verdicts(1, 1, 0.10, 0, Verdict::Slower, rule, 9), kTrials / 20);
}

TEST(RunVerdict, TwoAndTwoRunsAreWidenedThreeAndThreeAreNot) {
  const RunRule rule{0.05, 0.25};
  EXPECT_TRUE(runs_verdict(CaseRuns{{100, 101}}, CaseRuns{{150, 151}}, rule).widened);
  EXPECT_TRUE(
      runs_verdict(CaseRuns{{100, 101, 102}}, CaseRuns{{150, 151, 152}}, rule).widened);  // C(6, 3) = 20 < 40
  EXPECT_FALSE(runs_verdict(CaseRuns{{100, 101, 102, 103}}, CaseRuns{{150, 151, 152, 153}}, rule).widened);
  EXPECT_EQ(runs_verdict(CaseRuns{{100, 101, 102, 103}}, CaseRuns{{150, 151, 152, 153}}, rule).verdict,
            Verdict::Slower);
  EXPECT_EQ(runs_verdict(CaseRuns{{100, 101}}, CaseRuns{{120, 121}}, rule).verdict, Verdict::Ambiguous);
}

int regressions(std::size_t runs, double drift, double sigma, double shift, std::uint64_t from,
                unsigned seed) {
  std::mt19937 rng(seed);
  int alarms = 0;
  for (int t = 0; t < kTrials; ++t) {
    const ResultsDocument base = testing::series_run(rng, runs, drift, sigma, 0, 0);
    const ResultsDocument cur = testing::series_run(rng, runs, drift, sigma, shift, from);
    alarms +=
        compare_results(base, cur, CompareOptions{0.05, 0}).regression();  // no launch effect in these runs
  }
  return alarms;
}

TEST(RunVerdict, WholeSeriesAaFalseAlarmsAtMostFivePercent) {
  // 10 cases, 3 runs a side, 5% run-wide drift and 10% per case: at most 5% of comparisons exit 1.
  EXPECT_LE(regressions(3, 0.05, 0.10, 0, 0, 11), kTrials / 20);
  EXPECT_LE(regressions(5, 0.10, 0.10, 0, 0, 12), kTrials / 20);
}

TEST(RunVerdict, WholeSeriesPowerAtLeast95Percent) {
  // The three largest sizes 80% slower: found (exit 1) in at least 95% of comparisons.
  EXPECT_GE(regressions(4, 0.05, 0.10, 0.80, 1u << 20, 13), kTrials * 95 / 100);
}

TEST(RunVerdict, ALoneSizeNeedsStrongEvidenceAndRangesSpanNeighbours) {
  std::mt19937 rng(14);
  const ResultsDocument base = testing::series_run(rng, 4, 0, 0.01, 0, 0);
  ResultsDocument cur = base;
  const auto scale = [&](std::uint64_t bytes, double factor) {
    for (auto& c : cur.cases)
      if (c.spec.bytes == bytes)
        for (double& m : c.run_medians_us) m *= factor;
  };
  scale(512 << 10, 1.10);  // lone, +10%: clear of the runs, but not of 3x the threshold
  CompareReport report = compare_results(base, cur, CompareOptions{0.05, 0});
  EXPECT_FALSE(report.regression());
  EXPECT_EQ(report.count(Verdict::Ambiguous), 2u);
  scale(2 << 20, 1.10);
  scale(4 << 20, 1.10);  // two neighbours: a range
  report = compare_results(base, cur, CompareOptions{0.05, 0});
  ASSERT_EQ(report.slower_ranges.size(), 1u);
  EXPECT_EQ(report.slower_ranges[0].first_bytes, 2u << 20);
  EXPECT_EQ(report.slower_ranges[0].last_bytes, 4u << 20);
  EXPECT_EQ(report.slower_ranges[0].cases, 4u);
  EXPECT_EQ(report.count(Verdict::Slower), 4u);
  scale(512 << 10, 1.5);  // lone but +65%: strong evidence
  report = compare_results(base, cur, CompareOptions{0.05, 0});
  EXPECT_EQ(report.slower_ranges.size(), 2u);
  EXPECT_EQ(report.count(Verdict::Slower), 6u);
  EXPECT_EQ(report.worst_slower()->bytes, 512u << 10);
}

}  // namespace
}  // namespace commtune
