#pragma once
// What `commtune replay` runs (issue 28, docs/replay.md): one training step of a workload, its
// collectives in order on their groups, replayed step after step under the default and each setting,
// in interleaved rounds. This file turns the workload into the backend's step calls and checks that
// the job it runs on has the workload's shape.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "measure/decision.hpp"
#include "workload/workload.hpp"

namespace commtune {

// --price-per-gpu-hour P [--currency C] [--steps-per-run N]: what a GPU hour costs, to turn a
// change of the step's time into money (GPUs = the job's ranks).
struct Price {
  double per_gpu_hour = 0;
  std::string currency = "USD";
  std::uint64_t steps_per_run = 0;  // 0: no per-run figure
};

inline constexpr std::size_t kMaxReplayRounds = 100;
inline constexpr std::size_t kMaxReplaySteps = 100000;

struct ReplayOptions {
  std::size_t rounds = 5;  // interleaved rounds: every setting replays `steps` steps in each
  std::size_t steps = 20;  // timed steps per setting and round
  std::size_t warmup = 3;  // untimed steps before a setting's first round
  DecisionRule rule;       // --margin: what a change must clear to be called faster or slower
  std::optional<Price> price;
};

// The step's calls, in the workload's order: each entry a case (out of place, root 0) on its group
// spec, run `count` times in a row.
std::vector<StepCall> step_calls(const Workload& workload);

// The group specs the step uses, in order of first use.
std::vector<GroupSpec> step_groups(const Workload& workload);

// Throws InputError naming `origin` unless the job fits the workload: as many ranks, and each
// entry's group_ranks the ranks of every group its spec makes on this job's nodes.
void check_job_fits(const Workload& workload, const std::string& origin, int nranks,
                    const std::vector<GroupLayout>& layouts);

// Throws InputError naming the flag unless the price is usable: a price in (0, 1e6], a currency of
// 3 capital letters (ISO 4217), steps per run up to 1e12.
void check_price(const Price& price);

}  // namespace commtune
