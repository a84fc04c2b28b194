#include "measure/stopping_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/errors.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

// Iterations the next batch may have before the samples pass max_samples: each iteration is a
// sample in Iteration mode; a batch mean is one sample whatever the batch size (time alone
// bounds it).
std::size_t room_for(const Sampled& sampled, std::size_t max_samples) {
  if (sampled.unit == SampleUnit::BatchMean) return std::numeric_limits<std::size_t>::max();
  return (max_samples - std::min(sampled.samples.size(), max_samples)) *
         std::max<std::size_t>(sampled.block, 1);
}

// The seconds of one iteration so far (a floor keeps a zero-time clock from dividing by zero).
double pace(const Sampled& sampled) {
  return std::max(sampled.seconds / static_cast<double>(sampled.iterations), 1e-9);
}

// The rest of a fixed run, in bounded batches.
std::size_t next_fixed_batch(const Sampled& sampled, std::size_t fixed) {
  const std::size_t left = fixed - std::min(sampled.iterations, fixed);
  if (sampled.iterations == 0) return std::min(left, kFirstFixedBatch);
  const auto by_time = static_cast<std::size_t>(std::llround(kFixedBatchSeconds / pace(sampled)));
  return std::min({left, kMaxFixedBatch, std::max<std::size_t>(by_time, 1)});
}

// Half the clock's resolution per sample, relative to the median: how narrow an interval the
// samples can show at all.
double resolution_floor(const Sampled& sampled, double median) {
  if (!(sampled.resolution_s > 0) || !(median > 0)) return 0;
  return sampled.resolution_s / static_cast<double>(std::max<std::size_t>(sampled.block, 1)) / 2 / median;
}

}  // namespace

Sampled Sampled::per_iteration(std::span<const double> samples) {
  return Sampled{samples, SampleUnit::Iteration, samples.size(),
                 std::accumulate(samples.begin(), samples.end(), 0.0)};
}

std::size_t warmup_calls_before_check(std::size_t iterations, double enough_s) {
  return enough_s > 0 && iterations > kLeastWarmupCalls ? kLeastWarmupCalls : iterations;
}

std::size_t StoppingRule::expected_warmup_calls(double call_s) const {
  const std::size_t first = warmup_calls_before_check(warmup_iterations, warmup_enough_s);
  return first < warmup_iterations && static_cast<double>(first) * call_s >= warmup_enough_s
             ? first
             : warmup_iterations;
}

void StoppingRule::validate() const {
  if (fixed_iterations && (*fixed_iterations == 0 || *fixed_iterations > kMaxIterations))
    throw InputError("iterations (-n) must be from 1 to " + std::to_string(kMaxIterations));
  if (warmup_iterations > kMaxWarmup)
    throw InputError("warm-up iterations (-w) must be from 0 to " + std::to_string(kMaxWarmup));
  if (!(target_relative_ci > 0 && target_relative_ci <= 1))
    throw InputError("noise target (--noise-target) must be a fraction above 0, at most 1 (e.g. 0.01)");
  if (!(min_time_s >= 0 && min_time_s <= kMaxCaseSeconds) ||
      !(max_time_s > 0 && max_time_s <= kMaxCaseSeconds))
    throw InputError("times per case (--min-time, --max-time) must be from 0 to 3600 s, max time above 0");
  if (min_time_s > max_time_s) throw InputError("min time (--min-time) is above max time (--max-time)");
  if (min_samples == 0 || min_samples > kMaxIterations)
    throw InputError("min samples (--min-samples) must be from 1 to " + std::to_string(kMaxIterations));
}

bool StoppingRule::should_stop(const Sampled& sampled) const {
  if (fixed_iterations) return sampled.iterations >= *fixed_iterations;
  if (sampled.samples.size() >= max_samples) return true;
  if (sampled.seconds >= max_time_s) return true;
  if (sampled.samples.size() < min_samples || sampled.seconds < min_time_s) return false;
  const SampleStats stats = summarize(std::vector<double>(sampled.samples.begin(), sampled.samples.end()));
  if (leader && clearly_slower(compare_stats(*leader, stats), decision)) return true;
  return std::max(relative_ci_half_width(stats), resolution_floor(sampled, stats.median)) <=
         target_relative_ci;
}

std::size_t StoppingRule::next_batch(const Sampled& sampled) const {
  const std::size_t block = sampled.unit == SampleUnit::Block ? std::max<std::size_t>(sampled.block, 1) : 1;
  if (fixed_iterations)  // whole blocks: -n counts calls, a block's sample stands for `block` of them
    return (next_fixed_batch(sampled, *fixed_iterations) + block - 1) / block * block;
  if (sampled.iterations == 0) return min_samples * block;
  const double budget = std::min(max_batch_s, max_time_s - sampled.seconds);
  const auto by_time = static_cast<std::size_t>(std::llround(std::max(budget, 0.0) / pace(sampled)));
  const std::size_t iterations =
      std::clamp<std::size_t>(by_time, 1, std::max<std::size_t>(room_for(sampled, max_samples), 1));
  return (iterations + block - 1) / block * block;  // whole blocks, at least one
}

}  // namespace commtune
