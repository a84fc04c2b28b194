#pragma once
// Every supervisor ends each step with the same verdict and the same figures: each offers its
// local outcome and data, rank 0 picks the verdict (a worker's own failure beats a timeout it
// caused in its peers) and combines the data, and everyone receives the result.
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/control_plane.hpp"
#include "backend/nccl/supervisor/step_outcome.hpp"

namespace commtune {

struct AgreedStep {
  StepOutcome outcome;
  nlohmann::json data;  // combined data; null when the step failed
};

using CombineData = std::function<nlohmann::json(const std::vector<nlohmann::json>&)>;

// The CombineData of a step whose ranks send no data: an empty object.
inline nlohmann::json no_data(const std::vector<nlohmann::json>&) { return nlohmann::json::object(); }

AgreedStep agree_step(ControlPlane& control, const StepOutcome& local, const nlohmann::json& data,
                      const CombineData& combine);

// The verdict among several outcomes: the first plain failure, else the first timeout, else ok.
StepOutcome worst_outcome(const std::vector<StepOutcome>& outcomes);

// Combiners. Timed batches ({"seconds": [...], "loop_seconds": s}, one per rank): the
// element-wise max of the seconds (a collective is as slow as its slowest rank) and the mean of
// the loop seconds (nccl-tests' average over ranks), with "ranks": how many it averages, so that
// combining combined parts again (each supervisor, then rank 0) weighs every rank alike. Data
// checks: the sum of {"wrong": n}. A worker's batch that carries its host thread's CPU and wall
// seconds, with "rank" (added by its supervisor), adds [rank, cpu_s, wall_s] to the combined
// "rank_cpu"; the list is kept only while every rank's batch had them.
nlohmann::json combine_timed_batches(const std::vector<nlohmann::json>& parts);

// combine_timed_batches that also keeps each rank's own seconds, "rank_seconds": [[rank, [...]],
// ...] (a worker's batch with its "rank", or a combined part's list): the timings of a case whose
// groups run at once, each group as slow as its slowest rank.
nlohmann::json combine_rank_batches(const std::vector<nlohmann::json>& parts);

// The combined batch's seconds by rank (index = rank). Throws BackendError unless every rank of
// 0..nranks-1 is there exactly once.
std::vector<std::vector<double>> rank_seconds_of(const nlohmann::json& combined, int nranks);

// Replayed steps (ReplayedSteps, one per rank or already combined): the element-wise max of each
// step's and each call's seconds (a step, a call, is as slow as its slowest rank).
nlohmann::json combine_replayed_steps(const std::vector<nlohmann::json>& parts);

// One rank's host thread over a timed batch.
struct RankCpu {
  double cpu_s = 0, wall_s = 0;
};

// The combined batch's CPU seconds by rank (index = rank): empty unless every rank of 0..nranks-1
// is there exactly once.
std::vector<RankCpu> rank_cpu_of(const nlohmann::json& combined, int nranks);
nlohmann::json sum_wrong(const std::vector<nlohmann::json>& parts);

}  // namespace commtune
