#include "measure/stopping_rule.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/errors.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

double total_time(std::span<const double> samples) {
  return std::accumulate(samples.begin(), samples.end(), 0.0);
}

constexpr double kBatchSeconds = 0.01;  // batches this long keep the per-batch reduction cheap

}  // namespace

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

bool StoppingRule::should_stop(std::span<const double> samples) const {
  if (fixed_iterations) return samples.size() >= *fixed_iterations;
  if (samples.size() >= max_samples) return true;
  const double elapsed = total_time(samples);
  if (elapsed >= max_time_s) return true;
  if (samples.size() < min_samples || elapsed < min_time_s) return false;
  const SampleStats stats = summarize(std::vector<double>(samples.begin(), samples.end()));
  return relative_ci_half_width(stats) <= target_relative_ci;
}

std::size_t StoppingRule::next_batch(std::span<const double> samples) const {
  if (fixed_iterations) return *fixed_iterations - std::min(samples.size(), *fixed_iterations);
  if (samples.empty()) return min_samples;
  const double per_iteration = std::max(total_time(samples) / static_cast<double>(samples.size()), 1e-9);
  const double budget = std::min(kBatchSeconds, max_time_s - total_time(samples));
  const auto by_time = static_cast<std::size_t>(std::llround(std::max(budget, 0.0) / per_iteration));
  const std::size_t room = max_samples - std::min(samples.size(), max_samples);
  return std::clamp<std::size_t>(by_time, 1, std::max<std::size_t>(room, 1));
}

}  // namespace commtune
