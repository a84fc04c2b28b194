#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "core/errors.hpp"
#include "measure/sampler.hpp"
#include "measure/stopping_rule.hpp"
#include "results/case_result.hpp"

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

// A racing round 0's case stops once it is clearly slower than its size's fastest so far (the
// decision rule's disjoint intervals, the margin apart), even where its own noise target is not
// met; not before its least samples, and not where it is close to the leader.
TEST(StoppingRule, ARacedCaseStopsOnceClearlySlowerThanItsSizesLeader) {
  StoppingRule rule = adaptive();
  std::vector<double> samples;
  for (int i = 0; i < 10; ++i) samples.push_back(i % 2 ? 2.2e-3 : 1.8e-3);  // +-10%: no 1% interval
  EXPECT_FALSE(rule.should_stop(samples));
  SampleStats leader;
  leader.median = 1.0e-3, leader.median_ci_low = 0.99e-3, leader.median_ci_high = 1.01e-3;
  rule.leader = leader;
  EXPECT_TRUE(rule.should_stop(samples));
  EXPECT_FALSE(rule.should_stop(std::vector<double>(samples.begin(), samples.begin() + 9)));  // least 10
  leader.median = 1.9e-3, leader.median_ci_low = 1.85e-3, leader.median_ci_high = 1.95e-3;
  rule.leader = leader;  // within the slower one's interval: nothing is clear
  EXPECT_FALSE(rule.should_stop(samples));
  leader.median = 1.0e-3, leader.median_ci_low = 0.99e-3, leader.median_ci_high = 1.01e-3;
  rule.leader = leader;
  rule.decision.margin = 0.5;  // the slower one's interval starts 44% above the leader's: not 50%
  EXPECT_FALSE(rule.should_stop(samples));
}

TEST(StoppingRule, BatchesAreSizedByTimeAndBounded) {
  const StoppingRule rule = adaptive();
  EXPECT_EQ(rule.next_batch(std::vector<double>{}), rule.min_samples);
  const std::vector<double> fast(10, 1e-6);  // 1 us iterations: ~10 ms worth is 10000
  EXPECT_EQ(rule.next_batch(fast), 10000u);
  const std::vector<double> slow(10, 0.5);  // past max time: still at least one
  EXPECT_EQ(rule.next_batch(slow), 1u);
  StoppingRule short_batches = adaptive();
  short_batches.max_batch_s = 0.001;  // a racing round's: 1 ms worth of 1 us iterations
  EXPECT_EQ(short_batches.next_batch(fast), 1000u);
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
  BatchTimes time_batch(std::size_t n) override {
    requested.push_back(n);
    return BatchTimes{std::vector<double>(n, 2e-6), std::nullopt, {}};
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

// A fixed -n run goes in bounded batches: 10^6 iterations are never one batch of 10^6 launches,
// events and samples (a multi-MB reply, past the case's deadline).
TEST(StoppingRule, AFixedRunGoesInBoundedBatches) {
  StoppingRule rule;
  rule.fixed_iterations = kMaxIterations;
  std::vector<double> samples;
  std::size_t batches = 0;
  while (!rule.should_stop(Sampled::per_iteration(samples))) {
    const std::size_t batch = rule.next_batch(Sampled::per_iteration(samples));
    ASSERT_GE(batch, 1u);
    ASSERT_LE(batch, batches == 0 ? kFirstFixedBatch : kMaxFixedBatch);
    samples.insert(samples.end(), batch, 1e-6);  // 1 us each: a 1 s batch would be 10^6
    ++batches;
  }
  EXPECT_EQ(samples.size(), kMaxIterations);  // exactly -n, no more
  EXPECT_GE(batches, kMaxIterations / kMaxFixedBatch);
  // Slow iterations: a batch is about kFixedBatchSeconds.
  std::vector<double> slow(kFirstFixedBatch, 0.1);
  rule.fixed_iterations = 1000;
  EXPECT_EQ(rule.next_batch(Sampled::per_iteration(slow)), 10u);
}

// Samples in blocks: batches are whole blocks, and the interval is never narrower than the
// clock's resolution allows (identical quantized samples do not stop a case with false precision).
TEST(StoppingRule, BlocksAndTheClocksResolution) {
  StoppingRule rule = adaptive();
  std::vector<double> samples(20, 8e-6);  // twenty identical 8 us blocks means
  Sampled blocks{samples, SampleUnit::Block, 20 * 7, 20 * 7 * 8e-6, 7, 0.5e-6};
  EXPECT_EQ(rule.next_batch(blocks) % 7, 0u);
  EXPECT_EQ(rule.next_batch(Sampled{{}, SampleUnit::Block, 0, 0, 7, 0.5e-6}), rule.min_samples * 7);
  rule.min_time_s = 0;
  EXPECT_TRUE(rule.should_stop(blocks));  // 0.25 us / 7 / 8 us = 0.45 %: below the 1 % target
  Sampled single{samples, SampleUnit::Iteration, 20, 20 * 8e-6, 1, 0.5e-6};
  EXPECT_FALSE(rule.should_stop(single));  // one 0.5 us tick in 8 us: 3 % at best, the interval cannot be 0
  single.resolution_s = 0;
  EXPECT_TRUE(rule.should_stop(single));
}

// A timer with a coarse clock: the sampler times a pilot, then samples in blocks that span at
// least kResolutionsPerBlock of its resolution.
class CoarseTimer : public ScriptedTimer {
 public:
  double resolution_s() const override { return 0.5e-6; }
  BatchTimes time_blocks(std::size_t n, std::size_t block) override {
    blocks.push_back({n, block});
    return BatchTimes{std::vector<double>(n / block, 2e-6), std::nullopt, {}};
  }
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
};

TEST(Sampler, APacedGroupLastsItsFewMillisecondsWithAtLeastTwoCalls) {
  EXPECT_EQ(paced_group_for(0), kMaxPacedGroup);      // no warm-up: the call is not known
  EXPECT_EQ(paced_group_for(20e-6), kMaxPacedGroup);  // short calls: 8 of them, far below 4 ms
  EXPECT_EQ(paced_group_for(kPacedGroupSeconds / 8), 8u);
  EXPECT_EQ(paced_group_for(kPacedGroupSeconds / 3), 3u);
  EXPECT_EQ(paced_group_for(kPacedGroupSeconds / 2.5), 3u);  // at least the 4 ms
  EXPECT_EQ(paced_group_for(kPacedGroupSeconds), kMinPacedGroup);
  EXPECT_EQ(paced_group_for(1.0), kMinPacedGroup);  // a sample is a block of 2 calls at least
}

TEST(Sampler, APacedGroupOfShortCallsOutlastsOneBarrier) {
  EXPECT_EQ(paced_group_for(0.5e-6, 29.9e-6), 60u);           // 60 calls of 0.5 us outlast a 29.9 us barrier
  EXPECT_EQ(paced_group_for(20e-6, 30e-6), kMaxPacedGroup);   // 8 calls already outlast it
  EXPECT_EQ(paced_group_for(1e-3, 30e-6), 4u);                // long calls: the 4 ms rule alone
  EXPECT_EQ(paced_group_for(1e-9, 30e-6), kMaxPacedOutlast);  // at most this many
  EXPECT_EQ(paced_group_for(0, 30e-6), kMaxPacedGroup);       // the call's time unknown
  EXPECT_EQ(paced_group_for(0.5e-6, 0), kMaxPacedGroup);      // the barrier's unknown
}

// A paced timer (the MPI backend's broadcast) whose warm-up sets its group: the sampler asks for
// the group after the warm-up, and every block it times is that group.
class PacedTimer : public BatchTimer {
 public:
  SampleUnit unit() const override { return SampleUnit::Block; }
  std::size_t fixed_block() const override { return group; }
  void warm_up(std::size_t, double) override { group = paced_group_for(1.5e-3); }
  BatchTimes time_batch(std::size_t n) override {
    return BatchTimes{std::vector<double>(n, 1.5e-3), std::nullopt, {}};
  }
  BatchTimes time_blocks(std::size_t n, std::size_t block) override {
    blocks.push_back(block);
    return BatchTimes{std::vector<double>(n / block, 1.5e-3), std::nullopt, {}};
  }
  std::size_t group = kMaxPacedGroup;
  std::vector<std::size_t> blocks;
};

TEST(Sampler, APacedCaseSamplesInTheGroupItsWarmUpSet) {
  StoppingRule rule = adaptive();
  PacedTimer timer;
  const SampleRun run = sample_until_stable(timer, rule);
  EXPECT_EQ(run.block, 3u);  // 1.5 ms calls: 3 of them last the 4 ms
  ASSERT_FALSE(timer.blocks.empty());
  for (const std::size_t block : timer.blocks) EXPECT_EQ(block, 3u);
  EXPECT_EQ(run.iterations, run.samples.size() * 3);
  rule.warmup_iterations = 0;  // no warm-up: the group stays at its 8 calls
  PacedTimer cold;
  EXPECT_EQ(sample_until_stable(cold, rule).block, kMaxPacedGroup);
}

// A case measured again (a later racing round) samples in the block of its first measurement,
// whatever its own warm-up would have chosen: the rounds' pooled samples stand for the same calls.
TEST(Sampler, ACarriedBlockReplacesThePacedGroupAndThePilot) {
  StoppingRule rule = adaptive();
  rule.carried_block = 5;
  PacedTimer paced;  // its warm-up would set 3
  const SampleRun run = sample_until_stable(paced, rule);
  EXPECT_EQ(run.block, 5u);
  ASSERT_FALSE(paced.blocks.empty());
  for (const std::size_t block : paced.blocks) EXPECT_EQ(block, 5u);
  rule.warmup_iterations = 0;
  CoarseTimer coarse;  // its pilot would choose 25
  const SampleRun blocked = sample_until_stable(coarse, rule);
  EXPECT_TRUE(coarse.requested.empty());  // no pilot batch
  EXPECT_EQ(blocked.unit, SampleUnit::Block);
  EXPECT_EQ(blocked.block, 5u);
  for (const auto& [n, block] : coarse.blocks) EXPECT_EQ(block, 5u);
  rule.carried_block = 1;  // first measured call by call: no pilot, no blocks
  CoarseTimer single;
  const SampleRun alone = sample_until_stable(single, rule);
  EXPECT_EQ(alone.unit, SampleUnit::Iteration);
  EXPECT_TRUE(single.blocks.empty());
  EXPECT_EQ(single.requested.front(), rule.min_samples);
}

TEST(Sampler, ACoarseClockIsReadInBlocks) {
  EXPECT_EQ(block_for(2e-6, 0.5e-6), 25u);
  EXPECT_EQ(block_for(1e-3, 0.5e-6), 1u);
  EXPECT_EQ(block_for(0, 0.5e-6), kMaxBlock);
  EXPECT_EQ(block_for(2e-6, 0), 1u);
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 0;
  CoarseTimer timer;
  const SampleRun run = sample_until_stable(timer, rule);
  EXPECT_EQ(timer.requested, (std::vector<std::size_t>{10}));  // the pilot, dropped
  ASSERT_FALSE(timer.blocks.empty());
  for (const auto& [n, block] : timer.blocks) {
    EXPECT_EQ(block, 25u);
    EXPECT_EQ(n % 25, 0u);
  }
  EXPECT_EQ(run.unit, SampleUnit::Block);
  EXPECT_EQ(run.block, 25u);
  EXPECT_EQ(run.iterations, run.samples.size() * 25);
  EXPECT_NEAR(run.seconds, static_cast<double>(run.iterations) * 2e-6, 1e-12);
  rule.fixed_iterations = 100;  // a fixed run keeps one sample per iteration
  CoarseTimer fixed;
  EXPECT_EQ(sample_until_stable(fixed, rule).unit, SampleUnit::Iteration);
  EXPECT_TRUE(fixed.blocks.empty());
}

// A fine clock against the calls: the pilot finds no block needed, and its samples are the run's
// first batch (no second batch of the least samples).
class FineTimer : public ScriptedTimer {
 public:
  double resolution_s() const override { return 1e-9; }  // 2 us calls: 2000 reads
};

TEST(Sampler, APilotOfCallsTimedOneByOneIsTheRunsFirstBatch) {
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 0;
  FineTimer timer;
  const SampleRun run = sample_until_stable(timer, rule);
  EXPECT_EQ(timer.requested, (std::vector<std::size_t>{10, 5000}));
  EXPECT_EQ(run.unit, SampleUnit::Iteration);
  EXPECT_EQ(run.samples.size(), 5010u);
  EXPECT_EQ(run.iterations, 5010u);
  EXPECT_NEAR(run.seconds, 5010 * 2e-6, 1e-12);
}

// A timer with its own untimed warm-up: the sampler warms up through it, and times only the batches.
class WarmingTimer : public ScriptedTimer {
 public:
  void warm_up(std::size_t n, double enough_s) override {
    warmed.push_back(n);
    enough.push_back(enough_s);
  }
  std::vector<std::size_t> warmed;
  std::vector<double> enough;
};

TEST(Sampler, WarmsUpThroughTheTimersOwnWarmUp) {
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 3;
  WarmingTimer timer;
  sample_until_stable(timer, rule);
  EXPECT_EQ(timer.warmed, (std::vector<std::size_t>{3}));
  EXPECT_EQ(timer.requested, (std::vector<std::size_t>{10, 5000}));
  rule.warmup_iterations = 0;
  WarmingTimer cold;
  sample_until_stable(cold, rule);
  EXPECT_TRUE(cold.warmed.empty());
}

// The sampler hands the rule's warm-up, and the time that may end it, to the timer; a backend
// without a warm-up of its own (the NCCL supervisor's) runs every call in one timed batch.
TEST(Sampler, HandsTheWarmUpAndTheTimeThatMayEndItToTheTimer) {
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 5;
  rule.warmup_enough_s = 1e-3;
  WarmingTimer timer;
  sample_until_stable(timer, rule);
  EXPECT_EQ(timer.warmed, (std::vector<std::size_t>{5}));
  EXPECT_EQ(timer.enough, (std::vector<double>{1e-3}));
  ScriptedTimer plain;
  sample_until_stable(plain, rule);
  EXPECT_EQ(plain.requested.front(), 5u);
  EXPECT_EQ(plain.requested.at(1), 10u);
}

TEST(StoppingRule, AWarmUpThatMayEndCountsThreeCallsWhereTheyLastItsTime) {
  StoppingRule rule;
  rule.warmup_iterations = 5;
  EXPECT_EQ(rule.expected_warmup_calls(1.0), 5u);
  rule.warmup_enough_s = 1e-3;
  EXPECT_EQ(rule.expected_warmup_calls(0.4e-3), kLeastWarmupCalls);
  EXPECT_EQ(rule.expected_warmup_calls(0.3e-3), 5u);
  rule.warmup_iterations = 2;
  EXPECT_EQ(rule.expected_warmup_calls(1.0), 2u);
}

// The calls before the timed ones are the case's cost, not its figures: the warm-up's wall time,
// and a pilot dropped for blocks, are counted apart from the timed seconds.
class SlowWarmingTimer : public ScriptedTimer {
 public:
  void warm_up(std::size_t, double) override { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }
};

class SlowPilotTimer : public CoarseTimer {
 public:
  BatchTimes time_batch(std::size_t n) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return CoarseTimer::time_batch(n);
  }
};

TEST(Sampler, TheCallsBeforeTheTimedOnesAreCountedApart) {
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 3;
  SlowWarmingTimer warming;
  const SampleRun warmed = sample_until_stable(warming, rule);
  EXPECT_GE(warmed.warmup_seconds, 0.02);
  EXPECT_NEAR(warmed.seconds, 5010 * 2e-6, 1e-12);  // the timed calls alone
  rule.warmup_iterations = 0;
  SlowPilotTimer piloted;
  const SampleRun blocked = sample_until_stable(piloted, rule);
  ASSERT_EQ(blocked.unit, SampleUnit::Block);
  EXPECT_GE(blocked.warmup_seconds, 0.02);  // the dropped pilot
  EXPECT_NEAR(blocked.seconds, static_cast<double>(blocked.iterations) * 2e-6, 1e-12);
  const CaseResult c = measured_case(Case{}, "default", 2, blocked, -1);
  ASSERT_TRUE(c.cost.has_value());
  EXPECT_EQ(c.cost->timed_calls, blocked.iterations);
  EXPECT_DOUBLE_EQ(c.cost->timed_s, blocked.seconds);
  EXPECT_DOUBLE_EQ(c.cost->warmup_s, blocked.warmup_seconds);
}

// Batch means (a graph per batch): the samples count for min/max samples and the interval, the
// time and iterations behind them for the time limits and -n.
Sampled batch_means(const std::vector<double>& means, std::size_t iterations_each) {
  double seconds = 0;
  for (double m : means) seconds += m * static_cast<double>(iterations_each);
  return Sampled{means, SampleUnit::BatchMean, means.size() * iterations_each, seconds};
}

TEST(StoppingRule, BatchMeansCountTheTimeBehindThem) {
  StoppingRule rule = adaptive();
  rule.min_time_s = 0.05;
  const std::vector<double> means(10, 1e-5);
  EXPECT_FALSE(rule.should_stop(batch_means(means, 100)));        // 10 ms sampled
  EXPECT_TRUE(rule.should_stop(batch_means(means, 1000)));        // 100 ms sampled
  EXPECT_FALSE(rule.should_stop(std::vector<double>(10, 1e-5)));  // the same values as iterations: 0.1 ms
}

TEST(StoppingRule, BatchMeansNeedMinSamplesOfThemselves) {
  const StoppingRule rule = adaptive();
  EXPECT_FALSE(rule.should_stop(batch_means(std::vector<double>(9, 1e-5), 10000)));  // 0.9 s, but 9 means
  EXPECT_TRUE(rule.should_stop(batch_means(std::vector<double>(10, 1e-5), 1000)));
}

TEST(StoppingRule, FixedIterationsCountIterationsNotBatchMeans) {
  StoppingRule rule;
  rule.fixed_iterations = 20;
  const Sampled none{{}, SampleUnit::BatchMean, 0, 0};
  EXPECT_EQ(rule.next_batch(none), 20u);  // one graph of all 20, as nccl-tests -n 20 -G 1
  const std::vector<double> one{1e-5};
  EXPECT_TRUE(rule.should_stop(Sampled{one, SampleUnit::BatchMean, 20, 2e-4}));
}

TEST(StoppingRule, BatchMeansAreSizedByTimeNotByRemainingSamples) {
  StoppingRule rule = adaptive();
  rule.max_samples = 12;
  const std::vector<double> means(10, 1e-6);
  // 10 ms of 1 us iterations in one graph, though only 2 samples are left before max_samples.
  EXPECT_EQ(rule.next_batch(batch_means(means, 10)), 10000u);
  EXPECT_EQ(rule.next_batch(std::vector<double>(10, 1e-6)), 2u);  // per iteration: 2 left
}

TEST(Sampler, ABatchOfIterationsAddsOneSampleEach) {
  SampleRun run;
  add_batch(run, 3, BatchTimes{{1.0, 2.0, 3.0}, 5.0, {}});
  EXPECT_EQ(run.samples.size(), 3u);
  EXPECT_EQ(run.iterations, 3u);
  EXPECT_DOUBLE_EQ(run.seconds, 6.0);
  EXPECT_DOUBLE_EQ(run.pipelined_seconds, 2.0);
  EXPECT_DOUBLE_EQ(*run.loop_seconds_per_iteration(), 5.0 / 3);
}

TEST(Sampler, ABatchMeanStandsForItsIterations) {
  SampleRun run;
  run.unit = SampleUnit::BatchMean;
  add_batch(run, 10, BatchTimes{{2.0}, 21.0, {}});
  add_batch(run, 30, BatchTimes{{1.0}, 33.0, {}});
  EXPECT_EQ(run.samples, (std::vector<double>{2.0, 1.0}));
  EXPECT_EQ(run.iterations, 40u);
  EXPECT_DOUBLE_EQ(run.seconds, 50.0);
  EXPECT_EQ(run.longest_batch, 30u);
  EXPECT_DOUBLE_EQ(run.pipelined_seconds, 1.0);
  EXPECT_DOUBLE_EQ(*run.loop_seconds_per_iteration(), 54.0 / 40);
}

TEST(Sampler, ABatchOfTheWrongShapeIsABackendError) {
  SampleRun iterations;
  EXPECT_THROW(add_batch(iterations, 3, BatchTimes{{1.0, 2.0}, std::nullopt, {}}), BackendError);
  SampleRun means;
  means.unit = SampleUnit::BatchMean;
  EXPECT_THROW(add_batch(means, 3, BatchTimes{{1.0, 2.0, 3.0}, std::nullopt, {}}), BackendError);
}

TEST(Sampler, TheLoopFigureNeedsEveryBatch) {
  SampleRun run;
  add_batch(run, 1, BatchTimes{{1.0}, std::nullopt});
  add_batch(run, 1, BatchTimes{{1.0}, 1.0});
  EXPECT_FALSE(run.loop_seconds_per_iteration());
  SampleRun other;
  add_batch(other, 1, BatchTimes{{1.0}, 1.0});
  add_batch(other, 1, BatchTimes{{1.0}, std::nullopt});
  EXPECT_FALSE(other.loop_seconds_per_iteration());
}

// A graph-like timer: one mean per batch, with a loop figure.
class GraphTimer : public BatchTimer {
 public:
  SampleUnit unit() const override { return SampleUnit::BatchMean; }
  BatchTimes time_batch(std::size_t n) override {
    requested.push_back(n);
    return BatchTimes{{2e-6}, 2.5e-6 * static_cast<double>(n)};
  }
  std::vector<std::size_t> requested;
};

TEST(Sampler, GraphBatchesGiveOneSampleEachUntilMinSamplesOfThem) {
  StoppingRule rule = adaptive();
  rule.warmup_iterations = 3;
  GraphTimer timer;
  const SampleRun run = sample_until_stable(timer, rule);
  // warm-up, the first batch of min_samples iterations, then ~10 ms graphs until 10 means
  EXPECT_EQ(timer.requested.size(), 1u + rule.min_samples);
  EXPECT_EQ(timer.requested[1], 10u);
  EXPECT_EQ(timer.requested[2], 5000u);
  EXPECT_EQ(run.samples.size(), rule.min_samples);
  EXPECT_EQ(run.unit, SampleUnit::BatchMean);
  EXPECT_DOUBLE_EQ(*run.loop_seconds_per_iteration(), 2.5e-6);
}

}  // namespace
}  // namespace commtune
