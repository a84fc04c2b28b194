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

// What one sample stands for. Iteration: one timed iteration. BatchMean: a whole batch's time
// divided by its iterations (a CUDA graph, which can only be timed from outside): the batch
// sizes differ, so the time and iterations behind the samples are counted apart from them.
enum class SampleUnit { Iteration, BatchMean };

// What has been sampled so far, as the stopping rule sees it.
struct Sampled {
  std::span<const double> samples;  // seconds: per iteration, or per-batch means
  SampleUnit unit = SampleUnit::Iteration;
  std::size_t iterations = 0;  // timed iterations behind the samples
  double seconds = 0;          // timed seconds behind the samples

  // Samples that are one iteration each: iterations and seconds follow from them.
  static Sampled per_iteration(std::span<const double> samples);
};

struct StoppingRule {
  std::optional<std::size_t> fixed_iterations;  // -n: exactly this many timed iterations
  std::size_t warmup_iterations = 5;            // -w
  double target_relative_ci = 0.01;             // median CI half-width / median
  std::size_t min_samples = 10;
  double min_time_s = 0.02;  // sampled time, summed over iterations
  double max_time_s = 0.5;
  std::size_t max_samples = kMaxIterations;
  // The longest timed batch in adaptive mode: the rule looks at the samples (and every rank agrees
  // on them) after each batch, so a case stops at most this much sampled time after it could have.
  // A racing round scales it with its share of the sampling (plan/race_schedule).
  double max_batch_s = 0.01;

  // Throws InputError on values outside the ranges above, or min time > max time.
  void validate() const;

  // Decision on what has been sampled. Fixed mode counts iterations; min/max samples and the
  // confidence interval count samples (batch means in BatchMean mode); times are timed seconds.
  bool should_stop(const Sampled& sampled) const;
  bool should_stop(std::span<const double> samples) const { return should_stop(Sampled::per_iteration(samples)); }

  // How many iterations to run in the next batch.
  std::size_t next_batch(const Sampled& sampled) const;
  std::size_t next_batch(std::span<const double> samples) const { return next_batch(Sampled::per_iteration(samples)); }
};

}  // namespace commtune
