#pragma once
// How the host backend times a case's batches (measure/sampler's BatchTimer): back-to-back calls
// with a timestamp between them, every sample reduced (max) over the ranks; a rooted one-way
// collective in paced groups from a barrier; a case run on several groups at once through their
// tally. Where one call is short against the cost of reading the clock (a few microseconds), the
// sampler asks for blocks: each block of back-to-back calls is timed as one interval, so the clock
// reads and the bookkeeping between calls are a vanishing part of what is measured.
#include <mpi.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "backend/mpi/host_collective.hpp"
#include "backend/mpi/mpi_groups.hpp"
#include "measure/cpu_clock.hpp"
#include "measure/sampler.hpp"

namespace commtune {

// What one clock read costs on the slowest rank, in seconds (at least MPI_Wtick; each rank's
// least of 10 trials of 100 reads, so that a rank descheduled in one trial does not count the
// scheduler's time): the timer's resolution per timed interval. Every rank of `control` calls it, and all get
// the same value.
double mpi_clock_cost_s(MPI_Comm control);

class MpiBatchTimer : public BatchTimer {
 public:
  // `clock_cost_s`: mpi_clock_cost_s's figure (0: every iteration timed alone). `groups`: where
  // the case runs on several communicators at once, their tally (else null).
  MpiBatchTimer(HostCollective& collective, MPI_Comm control, bool paced, double clock_cost_s,
                GroupTally* groups = nullptr);

  // A rooted collective's sample is a paced group of calls: its time counts as theirs (a case's
  // min and max time are the calls' time, as for the others). The group's calls follow the
  // warm-up's calls and barriers (measure/sampler's paced_group_for): 8 where a call is short,
  // fewer where 8 calls would be far longer than the barrier's skew needs (a 4 MiB broadcast takes
  // milliseconds), more where 8 calls would not outlast one barrier (a broadcast of a few bytes).
  SampleUnit unit() const override { return paced_ ? SampleUnit::Block : SampleUnit::Iteration; }
  std::size_t fixed_block() const override { return paced_ ? group_ : 1; }
  BatchTimes time_batch(std::size_t iterations) override;
  // Paced and grouped cases time every sample alone: their samples are already groups of calls,
  // or the groups' tally needs each iteration.
  double resolution_s() const override { return paced_ || groups_ ? 0.0 : clock_cost_s_; }
  BatchTimes time_blocks(std::size_t iterations, std::size_t block) override;
  // The calls alone where every -w call runs (no agreement, unless paced). Where `enough_s` may
  // end it, the first kLeastWarmupCalls calls are timed and their seconds agreed (max over
  // ranks): the rest runs only where they were shorter. A paced case times each call and a few barriers:
  // the least call and the mean barrier, on the slowest rank, set its group (in the same agreement;
  // a later round's sampler may replace it with the case's first group). The first timed batch starts from
  // a barrier (a paced one from a barrier per sample), which also waits for a broadcast root that
  // ran ahead here.
  void warm_up(std::size_t iterations, double enough_s) override;

 private:
  using LoopClock = LoopCpuClock::Elapsed;
  std::vector<double> back_to_back(std::size_t iterations, std::vector<double>& inside, LoopClock& loop);
  std::vector<double> blocks(std::size_t iterations, std::size_t block, LoopClock& loop);
  void gather_rank_figures(const std::vector<double>& inside, const LoopClock& loop, BatchTimes& out);
  std::vector<double> paced(std::size_t samples, std::size_t group);
  // A barrier of `control_` on this rank: the mean of a few after one that lines the ranks up.
  double barrier_seconds();
  // Runs `calls` warm-up calls: their least call and their seconds, on this rank.
  std::pair<double, double> warm_calls(std::size_t calls);
  BatchTimes agreed(std::vector<double> durations, BatchTimes out);

  HostCollective& collective_;
  MPI_Comm control_;
  bool paced_;
  double clock_cost_s_;
  GroupTally* groups_;
  std::size_t group_ = kMaxPacedGroup;  // calls per paced sample
};

}  // namespace commtune
