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
  return max_samples - std::min(sampled.samples.size(), max_samples);
}

}  // namespace

Sampled Sampled::per_iteration(std::span<const double> samples) {
  return Sampled{samples, SampleUnit::Iteration, samples.size(), std::accumulate(samples.begin(), samples.end(), 0.0)};
}

void StoppingRule::validate() const {
  if (fixed_iterations && (*fixed_iterations == 0 || *fixed_iterations > kMaxIterations))
    throw InputError("iterations (-n) must be from 1 to " + std::to_string(kMaxIterations));
  if (warmup_iterations > kMaxWarmup) throw InputError("warm-up iterations (-w) must be from 0 to " + std::to_string(kMaxWarmup));
  if (!(target_relative_ci > 0 && target_relative_ci <= 1))
    throw InputError("noise target (--noise-target) must be a fraction above 0, at most 1 (e.g. 0.01)");
  if (!(min_time_s >= 0 && min_time_s <= kMaxCaseSeconds) || !(max_time_s > 0 && max_time_s <= kMaxCaseSeconds))
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
  return relative_ci_half_width(stats) <= target_relative_ci;
}

std::size_t StoppingRule::next_batch(const Sampled& sampled) const {
  if (fixed_iterations) return *fixed_iterations - std::min(sampled.iterations, *fixed_iterations);
  if (sampled.iterations == 0) return min_samples;
  const double per_iteration = std::max(sampled.seconds / static_cast<double>(sampled.iterations), 1e-9);
  const double budget = std::min(max_batch_s, max_time_s - sampled.seconds);
  const auto by_time = static_cast<std::size_t>(std::llround(std::max(budget, 0.0) / per_iteration));
  return std::clamp<std::size_t>(by_time, 1, std::max<std::size_t>(room_for(sampled, max_samples), 1));
}

}  // namespace commtune
