#include "measure/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/errors.hpp"
#include "measure/cpu_clock.hpp"

namespace commtune {
namespace {

void require_shape(SampleUnit unit, std::size_t block, std::size_t iterations, const BatchTimes& batch) {
  const std::size_t expected = unit == SampleUnit::BatchMean ? 1
                               : unit == SampleUnit::Block   ? iterations / block
                                                             : iterations;
  if (iterations == 0 || batch.samples.size() != expected ||
      (unit == SampleUnit::Block && iterations % block != 0))
    throw BackendError("a timed batch of " + std::to_string(iterations) + " iterations returned " +
                       std::to_string(batch.samples.size()) + " samples (expected " +
                       std::to_string(expected) + ")");
}

// The batch's time from its samples: their sum (times the block), or the one mean times the iterations.
double batch_seconds(SampleUnit unit, std::size_t block, std::size_t iterations, const BatchTimes& batch) {
  if (unit == SampleUnit::BatchMean) return batch.samples.front() * static_cast<double>(iterations);
  const double sum = std::accumulate(batch.samples.begin(), batch.samples.end(), 0.0);
  return unit == SampleUnit::Block ? sum * static_cast<double>(block) : sum;
}

// The median of a batch's samples (seconds per iteration, max over ranks already).
double median_of(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2),
                   samples.end());
  return samples[samples.size() / 2];
}

// The loop figure is kept only while every batch has one: dropped for good by one without.
void add_loop_seconds(SampleRun& run, const BatchTimes& batch, bool first) {
  if (!batch.rank_mean_loop_seconds || (!first && !run.loop_seconds)) {
    run.loop_seconds.reset();
    return;
  }
  run.loop_seconds = (first ? 0.0 : *run.loop_seconds) + *batch.rank_mean_loop_seconds;
}

// The times inside are kept only while every batch has the same whole number per sample (and
// within kMaxInsideValues): dropped for good otherwise.
void add_inside(SampleRun& run, const BatchTimes& batch, bool first) {
  const std::size_t per = batch.inside_s.size() / batch.samples.size();
  const bool whole = per >= 2 && batch.inside_s.size() == per * batch.samples.size();
  const bool same = first || (!run.inside_s.empty() && run.inside_s.size() == per * run.samples.size());
  if (!whole || !same || run.inside_s.size() + batch.inside_s.size() > kMaxInsideValues) {
    run.inside_s.clear();
    run.inside_s.shrink_to_fit();
    return;
  }
  run.inside_s.insert(run.inside_s.end(), batch.inside_s.begin(), batch.inside_s.end());
}

// The CPU and wall seconds are kept only while every batch has one of each per rank, for the
// same ranks: dropped for good otherwise.
void add_cpu(SampleRun& run, const BatchTimes& batch, bool first) {
  const std::size_t n = batch.rank_cpu_s.size();
  const bool whole = n >= 2 && batch.rank_wall_s.size() == n;
  if (!whole || (!first && run.cpu_s.size() != n)) {
    run.cpu_s.clear();
    run.wall_s.clear();
    return;
  }
  if (first) run.cpu_s.assign(n, 0.0), run.wall_s.assign(n, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    run.cpu_s[r] += batch.rank_cpu_s[r], run.wall_s[r] += batch.rank_wall_s[r];
}

}  // namespace

std::vector<double> SampleRun::cpu_share() const {
  std::vector<double> share;
  for (std::size_t r = 0; r < cpu_s.size(); ++r) {
    if (!(wall_s[r] > 0)) return {};
    share.push_back(std::clamp(cpu_s[r] / wall_s[r], 0.0, 1.0));
  }
  return share;
}

std::optional<double> SampleRun::loop_seconds_per_iteration() const {
  if (!loop_seconds || iterations == 0) return std::nullopt;
  return *loop_seconds / static_cast<double>(iterations);
}

BatchTimes BatchTimer::time_blocks(std::size_t, std::size_t) {
  throw BackendError("this backend times every iteration alone: it has no blocks");
}

std::size_t block_for(double iteration_s, double resolution_s) {
  if (!(resolution_s > 0)) return 1;
  const double wanted = kResolutionsPerBlock * resolution_s / std::max(iteration_s, 1e-12);
  if (wanted <= 1) return 1;
  return static_cast<std::size_t>(std::min(std::ceil(wanted), static_cast<double>(kMaxBlock)));
}

std::size_t paced_group_for(double call_s, double barrier_s) {
  if (!(call_s > 0)) return kMaxPacedGroup;
  const double wanted = std::clamp(std::ceil(kPacedGroupSeconds / call_s),
                                   static_cast<double>(kMinPacedGroup), static_cast<double>(kMaxPacedGroup));
  const double outlast =
      barrier_s > 0 ? std::min(std::ceil(barrier_s / call_s), static_cast<double>(kMaxPacedOutlast)) : 0;
  return static_cast<std::size_t>(std::max(wanted, outlast));
}

void add_batch(SampleRun& run, std::size_t iterations, const BatchTimes& batch) {
  require_shape(run.unit, run.block, iterations, batch);
  const double seconds = batch_seconds(run.unit, run.block, iterations, batch);
  if (iterations > run.longest_batch) {
    run.longest_batch = iterations;
    run.pipelined_seconds = seconds / static_cast<double>(iterations);
  }
  add_loop_seconds(run, batch, run.iterations == 0);
  add_inside(run, batch, run.iterations == 0);
  add_cpu(run, batch, run.iterations == 0);
  run.samples.insert(run.samples.end(), batch.samples.begin(), batch.samples.end());
  run.iterations += iterations;
  run.seconds += seconds;
}

namespace {

// The pilot chooses the block; where calls are long enough to be timed one by one, it is the run's
// first batch (as the sampling would have timed it), else it is dropped.
void pilot_chooses_block(BatchTimer& timer, const StoppingRule& rule, SampleRun& run) {
  const std::size_t pilot = std::max<std::size_t>(rule.min_samples, 5);
  const double pilot_start = monotonic_seconds();
  BatchTimes times = timer.time_batch(pilot);
  const std::size_t block = block_for(median_of(times.samples), run.resolution_s);
  if (block > 1)
    run.unit = SampleUnit::Block, run.block = block, run.warmup_seconds += monotonic_seconds() - pilot_start;
  else
    add_batch(run, pilot, times);
}

}  // namespace

SampleRun sample_until_stable(BatchTimer& timer, const StoppingRule& rule) {
  const double start = monotonic_seconds();
  if (rule.warmup_iterations > 0) timer.warm_up(rule.warmup_iterations, rule.warmup_enough_s);
  SampleRun run;
  run.warmup_seconds = monotonic_seconds() - start;
  run.unit = timer.unit();
  run.resolution_s = timer.resolution_s();
  const std::size_t carried = std::min(rule.carried_block, kMaxBlock);
  const bool blockable = run.unit == SampleUnit::Iteration && run.resolution_s > 0 && !rule.fixed_iterations;
  if (run.unit == SampleUnit::Block)
    run.block = std::max<std::size_t>(carried > 0 ? carried : timer.fixed_block(), 1);
  else if (blockable && carried > 1)
    run.unit = SampleUnit::Block, run.block = carried;  // the first measurement's block: no pilot
  else if (blockable && carried == 0)
    pilot_chooses_block(timer, rule, run);
  while (!rule.should_stop(run.sampled())) {
    const std::size_t batch = rule.next_batch(run.sampled());
    add_batch(run, batch,
              run.unit == SampleUnit::Block ? timer.time_blocks(batch, run.block) : timer.time_batch(batch));
  }
  return run;
}

}  // namespace commtune
