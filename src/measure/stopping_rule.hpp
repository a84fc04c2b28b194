#pragma once
// When to stop sampling a case. Fixed mode (-n) runs exactly that many iterations; adaptive mode
// (the default) stops once the median is known to the noise target, within min/max time.
// Every rank feeds it the same rank-reduced samples, so every rank takes the same decision.
#include <cstddef>
#include <optional>
#include <span>

#include "measure/decision.hpp"
#include "measure/statistics.hpp"

namespace commtune {

// The ranges every input is held to (-n, -w, --min-samples, --noise-target, --min-time, --max-time
// and their config keys), stated in --help and in the messages.
inline constexpr std::size_t kMaxIterations = 1'000'000;  // also the most samples a case keeps
inline constexpr std::size_t kMaxWarmup = 100'000;
inline constexpr double kMaxCaseSeconds = 3600;
inline constexpr std::size_t kMaxFixedBatch = 10'000;  // iterations of one batch of a fixed -n run
inline constexpr std::size_t kFirstFixedBatch = 100;   // before the pace is known
inline constexpr double kFixedBatchSeconds = 1.0;      // a fixed run's batch, once the pace is known
inline constexpr std::size_t kMaxBlock = 1000;         // the most calls one sample stands for

// What one sample stands for. Iteration: one timed iteration. BatchMean: a whole batch's time
// divided by its iterations (a CUDA graph, which can only be timed from outside): the batch
// sizes differ, so the time and iterations behind the samples are counted apart from them.
// Block: the mean of a fixed number of back-to-back iterations timed as one interval, where one
// iteration is too short against the clock's resolution (CUDA events: about 0.5 us).
enum class SampleUnit { Iteration, BatchMean, Block };

// What has been sampled so far, as the stopping rule sees it.
struct Sampled {
  std::span<const double> samples;  // seconds: per iteration, or per-batch means
  SampleUnit unit = SampleUnit::Iteration;
  std::size_t iterations = 0;  // timed iterations behind the samples
  double seconds = 0;          // timed seconds behind the samples
  std::size_t block = 1;       // Block: iterations per sample
  double resolution_s = 0;     // the clock's resolution per timed interval (0: negligible)

  // Samples that are one iteration each: iterations and seconds follow from them.
  static Sampled per_iteration(std::span<const double> samples);
};

// The calls a warm-up cut short by StoppingRule::warmup_enough_s still runs. Measured on the 2-core
// VM (4 ranks, 512 KiB to 4 MiB, every Open MPI algorithm, 8 warm-up calls timed one by one;
// docs/measurements.md): against the case's median, the first call took 1.07x (median over the
// cases), the second 1.06x, the third and later 1.00 to 1.01x.
inline constexpr std::size_t kLeastWarmupCalls = 3;

// The warm-up calls run before a warm-up of `iterations` may end on `enough_s`: kLeastWarmupCalls
// where it may (enough_s set, -w above them), else all of them (nothing to decide).
std::size_t warmup_calls_before_check(std::size_t iterations, double enough_s);

struct StoppingRule {
  std::optional<std::size_t> fixed_iterations;  // -n: exactly this many timed iterations
  std::size_t warmup_iterations = 5;            // -w
  // A racing round 0's (plan/race_schedule): the warm-up ends after kLeastWarmupCalls calls where
  // those have lasted this long on the slowest rank (0: always -w calls).
  double warmup_enough_s = 0;
  double target_relative_ci = 0.01;  // median CI half-width / median
  std::size_t min_samples = 10;
  double min_time_s = 0.02;  // sampled time, summed over iterations
  double max_time_s = 0.5;
  std::size_t max_samples = kMaxIterations;
  // The longest timed batch in adaptive mode: the rule looks at the samples (and every rank agrees
  // on them) after each batch, so a case stops at most this much sampled time after it could have.
  // A racing round scales it with its share of the sampling (plan/race_schedule).
  double max_batch_s = 0.01;
  // Every call timed alone where the backend can (the doctor's sweep: its last arrivals need each
  // call), instead of blocks of short calls timed as one interval. A backend whose clock is coarse
  // against a call (CUDA events) still times blocks.
  bool each_call = false;
  // A racing round 0's case measured after other settings' cases at its size and placement
  // (sweep/raced_sweep): the fastest of those (its median interval, in seconds). Once the case has
  // its least samples and min time, it stops as soon as it is clearly slower than that one by
  // `decision` (measure/decision): the race drops it on such figures, and more samples would only
  // narrow an interval that decides nothing more.
  std::optional<SampleStats> leader{};
  DecisionRule decision{};
  // A case measured again (a later racing round, a re-measure round): the calls each sample stood
  // for in its first measurement (a paced group, or a block of short calls; 1: every call timed
  // alone), so that the rounds' samples, which are pooled or set side by side, stand for the same
  // calls. 0: the timer and the sampler's pilot choose, as in a first measurement.
  std::size_t carried_block = 0;

  // Throws InputError on values outside the ranges above, or min time > max time.
  void validate() const;

  // The warm-up calls a case whose calls take `call_s` runs: -w, or kLeastWarmupCalls where
  // warmup_enough_s is set and that many calls last at least as long (what the cost model counts).
  std::size_t expected_warmup_calls(double call_s) const;

  // Decision on what has been sampled. Fixed mode counts iterations; min/max samples and the
  // confidence interval count samples (batch means in BatchMean mode, block means in Block
  // mode); times are timed seconds. The median's interval is never taken as narrower than half
  // the clock's resolution per sample (resolution_s / block): quantized samples that happen to
  // be equal do not stop a case with a precision the clock does not have.
  bool should_stop(const Sampled& sampled) const;
  bool should_stop(std::span<const double> samples) const {
    return should_stop(Sampled::per_iteration(samples));
  }

  // How many iterations to run in the next batch (whole blocks in Block mode). Fixed mode runs
  // the -n iterations in bounded batches (kMaxFixedBatch, and about kFixedBatchSeconds once the
  // pace is known): one batch of 10^6 would queue 10^6 launches and events, make a reply of
  // megabytes and run past the case's deadline.
  std::size_t next_batch(const Sampled& sampled) const;
  std::size_t next_batch(std::span<const double> samples) const {
    return next_batch(Sampled::per_iteration(samples));
  }
};

}  // namespace commtune
