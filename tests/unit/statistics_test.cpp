#include <gtest/gtest.h>

#include <random>

#include "measure/statistics.hpp"

namespace commtune {
namespace {

TEST(Statistics, SummarizesAKnownSample) {
  const SampleStats s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_NEAR(s.stddev, 1.5811388, 1e-6);  // sample standard deviation (n - 1)
  EXPECT_NEAR(s.cv, 1.5811388 / 3, 1e-6);
  EXPECT_DOUBLE_EQ(s.p5, 1.2);  // linear interpolation between the two lowest
  EXPECT_DOUBLE_EQ(s.p95, 4.8);
}

TEST(Statistics, MedianOfEvenCountInterpolates) { EXPECT_DOUBLE_EQ(summarize({1, 2, 3, 10}).median, 2.5); }

TEST(Statistics, EmptyAndSingleSamples) {
  EXPECT_EQ(summarize({}).count, 0u);
  const SampleStats one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
  EXPECT_DOUBLE_EQ(one.median_ci_low, 7);
  EXPECT_DOUBLE_EQ(one.median_ci_high, 7);
}

TEST(Statistics, MedianIsRobustToOutliersMeanIsNot) {
  std::vector<double> v(99, 10.0);
  v.push_back(1e6);
  const SampleStats s = summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 10.0);
  EXPECT_GT(s.mean, 1000.0);
}

TEST(MedianConfidence, RanksBracketTheMedianAndNarrowWithN) {
  const RankInterval small = median_ci_ranks(10), large = median_ci_ranks(1000);
  EXPECT_LT(small.low, 5u);
  EXPECT_GE(small.high, 5u);
  EXPECT_LT(small.high, 10u);
  const double small_width = static_cast<double>(small.high - small.low) / 10;
  const double large_width = static_cast<double>(large.high - large.low) / 1000;
  EXPECT_LT(large_width, small_width);
}

// The interval is meant to hold the true median ~95% of the time, whatever the distribution.
TEST(MedianConfidence, CoversTheTrueMedianAboutNinetyFivePercentOfTheTime) {
  std::mt19937 rng(42);
  std::exponential_distribution<double> skewed(1.0);
  const double true_median = std::log(2.0);
  int covered = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> v(50);
    for (auto& x : v) x = skewed(rng);
    const SampleStats s = summarize(v);
    if (s.median_ci_low <= true_median && true_median <= s.median_ci_high) ++covered;
  }
  const double coverage = static_cast<double>(covered) / trials;
  EXPECT_GT(coverage, 0.93);
  EXPECT_LT(coverage, 0.99);
}

TEST(RelativeCi, IsHalfWidthOverMedian) {
  SampleStats s;
  s.median = 100;
  s.median_ci_low = 98;
  s.median_ci_high = 104;
  EXPECT_DOUBLE_EQ(relative_ci_half_width(s), 0.03);
}

}  // namespace
}  // namespace commtune
