#include "backend/mpi/mpi_batch_timer.hpp"

#include <algorithm>
#include <limits>

#include "measure/cpu_clock.hpp"

namespace commtune {

double mpi_clock_cost_s(MPI_Comm control) {
  // The least of several short trials: a rank descheduled during one trial (ranks sharing cores)
  // would otherwise count the scheduler's milliseconds as clock reads, and time every short call
  // in blocks, without its last arrivals.
  constexpr int kTrials = 10, kReads = 100;
  double sink = 0, cost = 0;
  for (int t = 0; t < kTrials; ++t) {
    const double start = MPI_Wtime();
    for (int i = 0; i < kReads; ++i) sink += MPI_Wtime();
    const double trial = (MPI_Wtime() - start) / kReads;
    cost = t == 0 ? trial : std::min(cost, trial);
  }
  cost = std::max(cost, MPI_Wtick());
  if (!(sink > 0)) cost = MPI_Wtick();  // keeps the reads from being optimised away
  MPI_Allreduce(MPI_IN_PLACE, &cost, 1, MPI_DOUBLE, MPI_MAX, control);
  return cost;
}

MpiBatchTimer::MpiBatchTimer(HostCollective& collective, MPI_Comm control, bool paced, double clock_cost_s,
                             GroupTally* groups)
    : collective_(collective),
      control_(control),
      paced_(paced),
      clock_cost_s_(clock_cost_s),
      groups_(groups) {}

BatchTimes MpiBatchTimer::time_batch(std::size_t iterations) {
  std::vector<double> inside;
  LoopClock loop;
  std::vector<double> durations = paced_ ? paced(iterations, group_) : back_to_back(iterations, inside, loop);
  BatchTimes out{};
  if (!paced_) gather_rank_figures(inside, loop, out);
  if (groups_) groups_->add(durations, control_);
  return agreed(std::move(durations), std::move(out));
}

BatchTimes MpiBatchTimer::time_blocks(std::size_t iterations, std::size_t block) {
  if (paced_) {  // the sampler's blocks are the paced groups (its own, or a carried one)
    std::vector<double> durations = paced(iterations / block, block);
    if (groups_) groups_->add(durations, control_);
    return agreed(std::move(durations), BatchTimes{});
  }
  LoopClock loop;
  std::vector<double> durations = blocks(iterations, block, loop);
  BatchTimes out{};
  gather_rank_figures({}, loop, out);  // a block has no time per call inside it: no last arrivals
  out.inside_s.clear();
  return agreed(std::move(durations), std::move(out));
}

std::pair<double, double> MpiBatchTimer::warm_calls(std::size_t calls) {
  double least = std::numeric_limits<double>::infinity();
  const double first = MPI_Wtime();
  for (std::size_t i = 0; i < calls; ++i) {
    const double start = MPI_Wtime();
    collective_.run();
    least = std::min(least, MPI_Wtime() - start);
  }
  return {calls == 0 ? 0.0 : least, MPI_Wtime() - first};
}

void MpiBatchTimer::warm_up(std::size_t iterations, double enough_s) {
  const std::size_t first = warmup_calls_before_check(iterations, enough_s);
  const bool may_end = first < iterations;
  if (!paced_ && !may_end) {
    for (std::size_t i = 0; i < iterations; ++i) collective_.run();
    return;
  }
  const auto [least, seconds] = warm_calls(first);
  double agreed[3] = {least, seconds, paced_ ? barrier_seconds() : 0.0};
  MPI_Allreduce(MPI_IN_PLACE, agreed, paced_ ? 3 : 2, MPI_DOUBLE, MPI_MAX, control_);
  if (may_end && !(agreed[1] >= enough_s)) {  // short calls: the rest of -w
    const auto rest = warm_calls(iterations - first);
    agreed[0] = std::min(least, rest.first);
    if (paced_) MPI_Allreduce(MPI_IN_PLACE, agreed, 1, MPI_DOUBLE, MPI_MAX, control_);
  }
  if (paced_) group_ = paced_group_for(agreed[0], agreed[2]);
}

double MpiBatchTimer::barrier_seconds() {
  constexpr int kBarriers = 4;
  MPI_Barrier(control_);
  const double start = MPI_Wtime();
  for (int i = 0; i < kBarriers; ++i) MPI_Barrier(control_);
  return (MPI_Wtime() - start) / kBarriers;
}

// Every rank gets each sample's slowest rank.
BatchTimes MpiBatchTimer::agreed(std::vector<double> durations, BatchTimes out) {
  MPI_Allreduce(MPI_IN_PLACE, durations.data(), static_cast<int>(durations.size()), MPI_DOUBLE, MPI_MAX,
                control_);
  out.samples = std::move(durations);
  return out;
}

// Iterations follow each other with only a timestamp in between (self-synchronising collectives).
// `inside` gets each iteration's seconds inside the call, for the last arrival; `loop` the loop's
// CPU and wall seconds (read outside the iterations), for this rank's share of the CPU.
std::vector<double> MpiBatchTimer::back_to_back(std::size_t iterations, std::vector<double>& inside,
                                                LoopClock& loop) {
  std::vector<double> durations(iterations);
  inside.assign(iterations, 0.0);
  MPI_Barrier(control_);
  const double cpu_start = thread_cpu_seconds();
  double previous = MPI_Wtime();
  const double start = previous;
  for (std::size_t i = 0; i < iterations; ++i) {
    const double entered = MPI_Wtime();
    collective_.run();
    const double now = MPI_Wtime();
    durations[i] = now - previous;
    inside[i] = now - entered;
    previous = now;
  }
  loop = LoopClock{thread_cpu_seconds() - cpu_start, previous - start};
  return durations;
}

// The same loop with one timestamp per block of `block` calls: each sample is its block's
// seconds / block.
std::vector<double> MpiBatchTimer::blocks(std::size_t iterations, std::size_t block, LoopClock& loop) {
  std::vector<double> durations(iterations / block);
  MPI_Barrier(control_);
  const double cpu_start = thread_cpu_seconds();
  double previous = MPI_Wtime();
  const double start = previous;
  for (double& d : durations) {
    for (std::size_t i = 0; i < block; ++i) collective_.run();
    const double now = MPI_Wtime();
    d = (now - previous) / static_cast<double>(block);
    previous = now;
  }
  loop = LoopClock{thread_cpu_seconds() - cpu_start, previous - start};
  return durations;
}

// Rank 0 gets, in one gather, every rank's time inside each iteration (iteration-major, for the
// last arrivals) and its loop CPU and wall seconds (index = rank); the others get nothing (only
// rank 0 writes results). Each rank sends its n times, then its CPU and wall seconds.
void MpiBatchTimer::gather_rank_figures(const std::vector<double>& inside, const LoopClock& loop,
                                        BatchTimes& out) {
  int rank = 0, size = 1;
  MPI_Comm_rank(control_, &rank);
  MPI_Comm_size(control_, &size);
  if (size < 2) return;
  const std::size_t n = inside.size(), each = n + 2;
  std::vector<double> mine(inside);
  mine.push_back(loop.cpu_s);
  mine.push_back(loop.wall_s);
  std::vector<double> all(rank == 0 ? each * static_cast<std::size_t>(size) : 0);
  MPI_Gather(mine.data(), static_cast<int>(each), MPI_DOUBLE, all.data(), static_cast<int>(each), MPI_DOUBLE,
             0, control_);
  if (rank != 0) return;
  const auto ranks = static_cast<std::size_t>(size);
  out.inside_s.resize(n * ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const double* from = all.data() + r * each;
    for (std::size_t i = 0; i < n; ++i) out.inside_s[i * ranks + r] = from[i];
    out.rank_cpu_s.push_back(from[n]);
    out.rank_wall_s.push_back(from[n + 1]);
  }
}

// A rooted one-way collective (broadcast) does not synchronise ranks: an eager root runs ahead and
// a receiver that finds data already there times only a copy. So each sample is a group of
// back-to-back calls started from a barrier, divided by the group size: the receivers' time
// includes every transfer, and barrier exit skew is spread over the group.
std::vector<double> MpiBatchTimer::paced(std::size_t samples, std::size_t group) {
  std::vector<double> durations(samples);
  for (auto& d : durations) {
    MPI_Barrier(control_);
    const double start = MPI_Wtime();
    for (std::size_t i = 0; i < group; ++i) collective_.run();
    d = (MPI_Wtime() - start) / static_cast<double>(group);
  }
  return durations;
}

}  // namespace commtune
