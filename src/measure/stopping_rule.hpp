#pragma once
// When to stop sampling a case. Fixed mode (-n) runs exactly that many iterations; adaptive mode
// (the default) stops once the median is known to the noise target, within min/max time.
// Every rank feeds it the same rank-reduced samples, so every rank takes the same decision.
#include <cstddef>
#include <optional>
#include <span>

namespace commtune {

// The ranges every input is held to (-n, -w, --min-samples, --noise-target, --min-time, --max-time
// and their config keys), stated in --help and in the messages.
inline constexpr std::size_t kMaxIterations = 1'000'000;  // also the most samples a case keeps
inline constexpr std::size_t kMaxWarmup = 100'000;
inline constexpr double kMaxCaseSeconds = 3600;

struct StoppingRule {
  std::optional<std::size_t> fixed_iterations;  // -n: exactly this many timed iterations
  std::size_t warmup_iterations = 5;            // -w
  double target_relative_ci = 0.01;             // median CI half-width / median
  std::size_t min_samples = 10;
  double min_time_s = 0.02;  // sampled time, summed over iterations
  double max_time_s = 0.5;
  std::size_t max_samples = kMaxIterations;

  // Throws InputError on values outside the ranges above, or min time > max time.
  void validate() const;

  // Decision on the samples gathered so far (seconds per iteration).
  bool should_stop(std::span<const double> samples) const;

  // How many iterations to run in the next batch, given what has been sampled.
  std::size_t next_batch(std::span<const double> samples) const;
};

}  // namespace commtune
