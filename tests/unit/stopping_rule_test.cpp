#include <gtest/gtest.h>

#include <random>

#include "core/errors.hpp"
#include "measure/sampler.hpp"
#include "measure/stopping_rule.hpp"

namespace commtune {
namespace {

StoppingRule adaptive() {
  StoppingRule rule;
  rule.min_samples = 10;
  rule.min_time_s = 0.001;
  rule.max_time_s = 1.0;
  rule.target_relative_ci = 0.01;
  return rule;
}

TEST(StoppingRule, FixedIterationsStopExactly) {
  StoppingRule rule;
  rule.fixed_iterations = 20;
  std::vector<double> samples(19, 1e-3);
  EXPECT_FALSE(rule.should_stop(samples));
  EXPECT_EQ(rule.next_batch(samples), 1u);
  samples.push_back(1e-3);
  EXPECT_TRUE(rule.should_stop(samples));
}

TEST(StoppingRule, NeedsMinSamplesEvenWhenQuiet) {
  const StoppingRule rule = adaptive();
  EXPECT_FALSE(rule.should_stop(std::vector<double>(9, 1e-3)));
  EXPECT_TRUE(rule.should_stop(std::vector<double>(10, 1e-3)));
}

TEST(StoppingRule, NeedsMinTime) {
  StoppingRule rule = adaptive();
  rule.min_time_s = 0.5;
  EXPECT_FALSE(rule.should_stop(std::vector<double>(100, 1e-3)));  // 0.1 s sampled
  EXPECT_TRUE(rule.should_stop(std::vector<double>(600, 1e-3)));
}

TEST(StoppingRule, NoisySamplesContinueUntilPreciseOrOutOfTime) {
  const StoppingRule rule = adaptive();
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> noisy(0.5e-4, 1.5e-4);  // +-50% around 100 us
  std::vector<double> samples;
  for (int i = 0; i < 20; ++i) samples.push_back(noisy(rng));
  EXPECT_FALSE(rule.should_stop(samples));  // 20 samples cannot pin the median to 1%
  while (!rule.should_stop(samples)) samples.push_back(noisy(rng));
  EXPECT_GT(samples.size(), 1000u);  // it took many samples to get there
}

TEST(StoppingRule, MaxTimeAlwaysEnds) {
  StoppingRule rule = adaptive();
  rule.max_time_s = 0.01;
  std::vector<double> wild;
  for (int i = 0; i < 200; ++i) wild.push_back(i % 2 ? 1e-5 : 1e-4);
  EXPECT_TRUE(rule.should_stop(wild));  // 200 x ~55 us > 10 ms
}

TEST(StoppingRule, BatchesAreSizedByTimeAndBounded) {
  const StoppingRule rule = adaptive();
  EXPECT_EQ(rule.next_batch({}), rule.min_samples);
  const std::vector<double> fast(10, 1e-6);  // 1 us iterations: ~10 ms worth is 10000
  EXPECT_EQ(rule.next_batch(fast), 10000u);
  const std::vector<double> slow(10, 0.5);  // past max time: still at least one
  EXPECT_EQ(rule.next_batch(slow), 1u);
}

TEST(StoppingRule, RejectsNonsense) {
  StoppingRule rule;
  rule.max_time_s = -1;
  EXPECT_THROW(rule.validate(), InputError);
  rule = StoppingRule{};
  rule.min_time_s = 2;
  rule.max_time_s = 1;
  EXPECT_THROW(rule.validate(), InputError);
  rule = StoppingRule{};
  rule.fixed_iterations = 0;
  EXPECT_THROW(rule.validate(), InputError);
  rule = StoppingRule{};
  rule.target_relative_ci = 0;
  EXPECT_THROW(rule.validate(), InputError);
  EXPECT_NO_THROW(StoppingRule{}.validate());
}

// A timer that replays a scripted sequence, to check the sampler's loop end to end.
class ScriptedTimer : public BatchTimer {
 public:
  std::vector<double> time_batch(std::size_t n) override {
    requested.push_back(n);
    return std::vector<double>(n, 2e-6);
  }
  std::vector<std::size_t> requested;
};

TEST(Sampler, WarmsUpThenSamplesUntilTheRuleStops) {
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 3;
  ScriptedTimer timer;
  const SampleRun run = sample_until_stable(timer, rule);
  // warm-up (discarded), min_samples, then one ~10 ms batch reaches the 1 ms min time; constant
  // samples have a zero-width interval, so it stops there.
  EXPECT_EQ(timer.requested, (std::vector<std::size_t>{3, 10, 5000}));
  EXPECT_EQ(run.samples.size(), 5010u);
  EXPECT_NEAR(run.pipelined_seconds, 2e-6, 1e-15);
}

}  // namespace
}  // namespace commtune
