#pragma once
// What a plan costs in wall time, before it runs (--budget, the progress line's ETA). A rough
// latency-bandwidth model of one iteration, the stopping rule's bounds on sampling, and the
// fixed costs a backend has: opening a setting (on NCCL a worker start and a communicator init:
// seconds; racing keeps up to sessions_kept settings open across its rounds and reopens the
// rest each round) and each case's own overhead (buffers, the data check,
// the ranks' agreement). The backend supplies the constants (Backend::cost_model); the estimate
// is a range: `expected` (cases stop on their noise target soon after the least samples and
// time; racing drops half the settings of a size each round) and `most` (every case runs to its
// max time; every setting survives every round).
#include <cstddef>
#include <cstdint>

#include "measure/stopping_rule.hpp"
#include "plan/plan.hpp"

namespace commtune {

struct CostModel {
  double setting_start_s = 0;  // opening one setting once
  double case_overhead_s = 0;  // per case, besides its iterations
  double latency_s = 1e-5;     // per iteration, whatever the size
  double bytes_per_s = 1e9;    // per iteration: the case's bytes at this rate
  // Wall seconds per sampled second of a rooted collective (broadcast): the MPI host backend
  // times each broadcast sample as a group of calls after a barrier, divided by the group.
  double rooted_factor = 1;
  // Settings that may stay open at once: racing keeps each open across its rounds, up to this
  // many (an MPI communicator costs little; an NCCL setting holds workers, a communicator and
  // GPU buffers), and reopens the rest each round.
  std::size_t sessions_kept = 1;
  // Whether the backend ends a racing round 0's warm-up early where its first calls last the
  // round's least time (StoppingRule::warmup_enough_s): the MPI host backend's timer does; the
  // NCCL supervisor's warm-up is one request to its workers, every -w call.
  bool warmup_cut = false;
};

struct CostRange {
  double expected_s = 0;
  double most_s = 0;
  CostRange& operator+=(const CostRange& other) {
    expected_s += other.expected_s;
    most_s += other.most_s;
    return *this;
  }
};

// One iteration of a case of `bytes` (nccl-tests' size).
double iteration_seconds(const CostModel& model, std::uint64_t bytes);

// One case under `rule`: warm-up, the data check (two iterations' worth: fill and verify),
// sampling, the case's overhead.
CostRange case_cost(const CostModel& model, const StoppingRule& rule, const Case& c, bool check);

// The whole plan: every run of it (--repeat), each setting opened once per run; with racing
// (plan.options.race.enabled), round by round as sweep/raced_sweep runs it.
CostRange plan_cost(const Plan& plan, const CostModel& model);

}  // namespace commtune
