#pragma once
// The adaptive sampling loop, backend-independent: warm up, then run batches of back-to-back
// iterations until the stopping rule is satisfied. The backend's BatchTimer returns samples
// already reduced (max) over ranks, so every rank sees the same samples.
#include <cstddef>
#include <optional>
#include <vector>

#include "measure/last_arrival.hpp"
#include "measure/stopping_rule.hpp"

namespace commtune {

// One timed batch as the backend reports it.
struct BatchTimes {
  // Iteration unit: each iteration's seconds, max over ranks. BatchMean: exactly one value, the
  // batch's seconds / iterations, max over ranks.
  std::vector<double> samples;
  // The batch's timed-loop seconds on each rank, averaged over ranks (nccl-tests' arithmetic),
  // where the backend measures it.
  std::optional<double> rank_mean_loop_seconds;
  // Iteration unit, where the backend measures it: each rank's seconds inside each iteration,
  // iteration-major (inside_s[i * ranks + r]), for the last arrivals. Only the first rank gets
  // them; empty elsewhere.
  std::vector<double> inside_s;
  // Where the backend measures it: each rank's CPU seconds (its calling thread's) and wall seconds
  // over the batch's timed loop (index = rank), for its share of the CPU. Only the first rank
  // gets them; empty elsewhere.
  std::vector<double> rank_cpu_s{}, rank_wall_s{};
};

class BatchTimer {
 public:
  virtual ~BatchTimer() = default;
  // What each returned sample stands for; the same for every batch of a case.
  virtual SampleUnit unit() const { return SampleUnit::Iteration; }
  // Runs `iterations` back to back.
  virtual BatchTimes time_batch(std::size_t iterations) = 0;
  // The clock's resolution per timed interval, where it is coarse against short iterations (CUDA
  // events); 0 where every iteration can be timed alone.
  virtual double resolution_s() const { return 0; }
  // Block unit: the calls every sample stands for (a paced group of calls from a barrier, timed as
  // one interval); 1 otherwise.
  virtual std::size_t fixed_block() const { return 1; }
  // Runs `iterations` (whole blocks) back to back, timing each block of `block` as one interval:
  // iterations / block samples, each the block's seconds / block. Only a timer with a resolution,
  // or one whose unit is Block, is asked.
  virtual BatchTimes time_blocks(std::size_t iterations, std::size_t block);
  // Runs `iterations` before the timed batches (buffers touched, connections made); nothing is
  // kept. A timer may end it after kLeastWarmupCalls calls that lasted `enough_s` on the slowest
  // rank (a racing round 0's StoppingRule::warmup_enough_s; 0: never), as every rank agrees; the
  // MPI backend's does (its CostModel says so). A backend whose every batch is a round trip to its
  // workers keeps this default: one timed batch of every call, its figures dropped.
  virtual void warm_up(std::size_t iterations, double /*enough_s*/) { time_batch(iterations); }
};

inline constexpr std::size_t kMaxInsideValues = std::size_t{1} << 24;  // 128 MiB of doubles

// A block is at least this many clock resolutions long (its quantization at most 1%), and at most
// kMaxBlock iterations (measure/stopping_rule).
inline constexpr double kResolutionsPerBlock = 100;

// Iterations per block for iterations of `iteration_s` on a clock of `resolution_s`: 1 where one
// iteration already spans kResolutionsPerBlock resolutions (or the clock's resolution is 0).
std::size_t block_for(double iteration_s, double resolution_s);

// A paced sample (a group of back-to-back calls started from a barrier: the MPI backend's rooted
// collectives) lasts at least this long, so that the barrier's exit spread, which the slowest
// rank's time of the group includes, is a small part of it: on the 2-core development VM with 4
// ranks, groups of 2 to 4 calls lasting at least 4 ms timed 0.973 to 1.003 of groups of 8
// (scripts/bench-paced-groups.sh, docs/statistics.md). The group takes kMaxPacedGroup calls where
// calls are shorter, and at least kMinPacedGroup (a sample is a block: docs/results-schema.md, 2
// to 1000 calls).
inline constexpr double kPacedGroupSeconds = 4e-3;
inline constexpr std::size_t kMinPacedGroup = 2;
inline constexpr std::size_t kMaxPacedGroup = 8;
// The most calls of a group that outlasts its barrier: back-to-back eager broadcasts of a few bytes
// run ahead of their receivers until the transport's buffers are full, and a root that waits
// there for a descheduled receiver (ranks sharing cores) waits a scheduler's time slice.
inline constexpr std::size_t kMaxPacedOutlast = 256;

// The calls of one paced sample for calls of `call_s` (the warm-up's least call, slowest rank)
// after barriers of `barrier_s` (the warm-up's mean barrier, slowest rank; 0: not known): enough
// for kPacedGroupSeconds, kMinPacedGroup to kMaxPacedGroup, and more where those would not outlast
// one barrier (a broadcast of a few bytes takes a fraction of a microsecond, a barrier of 4
// oversubscribed ranks tens): as many as one barrier lasts, at most kMaxPacedOutlast. Otherwise
// the barrier's exit spread is most of a sample and the samples are bimodal (docs/statistics.md).
// The least call is the one known well: a mean over the few warm-up calls is dominated by the
// first, and a receiver's least may be a copy of data already there, so such a group may last a
// few barriers. kMaxPacedGroup where the call's time is unknown (0: no warm-up).
std::size_t paced_group_for(double call_s, double barrier_s = 0);

struct SampleRun {
  std::vector<double> samples;  // seconds per iteration (or per-batch or per-block means), max over ranks
  SampleUnit unit = SampleUnit::Iteration;
  std::size_t block = 1;       // Block: iterations per sample
  double resolution_s = 0;     // the timer's resolution per interval
  std::size_t iterations = 0;  // timed iterations behind the samples
  double seconds = 0;          // timed seconds behind the samples
  // This rank's wall seconds of the calls run before the timed ones: the warm-up, and a pilot
  // batch dropped because the run is timed in blocks (the case's cost, not its figures).
  double warmup_seconds = 0;
  std::size_t longest_batch = 0;  // iterations of the longest batch
  double pipelined_seconds = 0;   // total / iterations of the longest batch, from the samples
  // Sum over batches of the rank-mean loop seconds; only when every timed batch had one.
  std::optional<double> loop_seconds;
  // Every rank's seconds inside each sample's iteration, while every timed batch had them (else
  // empty), at most kMaxInsideValues of them.
  std::vector<double> inside_s;
  // Each rank's CPU and wall seconds summed over the timed loops, while every timed batch had
  // them (else empty).
  std::vector<double> cpu_s, wall_s;

  Sampled sampled() const { return Sampled{samples, unit, iterations, seconds, block, resolution_s}; }
  // nccl-tests' figure: the timed loops' rank-mean seconds / the iterations they ran.
  std::optional<double> loop_seconds_per_iteration() const;
  // Each rank's share of the CPU over the timed loops: its CPU seconds / its wall seconds (a
  // busy-polling MPI rank runs whenever the scheduler lets it); empty when not measured.
  std::vector<double> cpu_share() const;
};

// Adds one timed batch of `iterations` to the run. Throws BackendError when the batch does not
// hold what the run's unit says (one sample per iteration, or exactly one batch mean).
void add_batch(SampleRun& run, std::size_t iterations, const BatchTimes& batch);

// Warms up; where the timer's clock is coarse against one iteration (and the run is adaptive),
// times a pilot batch to choose the block: dropped, like the warm-up, when the run is timed in
// blocks, else its first batch (one more batch and its agreement saved per case); then samples
// until the stopping rule is satisfied. A rule's carried_block (a case measured again) replaces
// both the pilot's block and the timer's own (a paced group): every sample then stands for as
// many calls as in the case's first measurement (1: each call timed alone, no pilot).
SampleRun sample_until_stable(BatchTimer& timer, const StoppingRule& rule);

}  // namespace commtune
