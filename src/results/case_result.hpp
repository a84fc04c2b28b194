#pragma once
// What one case produced: its identity, its status (with the reason when it did not measure),
// the statistics of its per-iteration times, bandwidths and the data check.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "measure/last_arrival.hpp"
#include "measure/sampler.hpp"
#include "measure/statistics.hpp"
#include "plan/plan.hpp"
#include "results/nccl_choice.hpp"

namespace commtune {

enum class CaseStatus { Ok, WrongData, Failed, TimedOut, Skipped };

std::string_view name_of(CaseStatus s);
CaseStatus parse_case_status(std::string_view text);

std::string_view name_of(SampleUnit u);
SampleUnit parse_sample_unit(std::string_view text);

// nccl-tests' figure for a case: each rank's timed-loop seconds / iterations, averaged over
// ranks, and the bandwidths from it.
struct LoopFigure {
  double time_us = 0;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
};

// A racing sweep (the default for configs with more than the default setting) drops a setting at
// a (collective, size) once it is clearly slower than the best one there; its cases keep what they
// measured up to then, with the round it was dropped after and the tuner rule's figures.
struct RacedOut {
  std::size_t round = 0;  // 1-based: dropped after this many rounds
  std::string reason;     // never empty
};

// One group of a case run on several communicators at once (--groups): its members and figures.
struct GroupFigure {
  std::vector<int> ranks;  // job ranks
  std::vector<int> nodes;  // node numbers, in order of each node's first rank (provenance.layout)
  SampleStats time_us;     // per-iteration time, max over the group's ranks
  double algbw_gbps = 0, busbw_gbps = 0;  // from the median, with the group's ranks
};

struct CaseGroups {
  std::string shape;                // "4x2x1": groups x ranks per group x nodes per group
  std::vector<GroupFigure> groups;  // in ascending color, as the layout has them
  std::size_t slowest = 0;          // the group whose figures are the case's: the job waits for it
  double busbw_sum_gbps = 0;        // the groups' busbw added up: what the shared links carried
};

// What running a case cost, for the profile of a sweep (scripts/bench-racing.sh): rank 0's wall
// seconds from the case's start to every rank agreeing on its outcome (buffers, the data check,
// the warm-up, the timed batches and their agreement), of which the warm-up's, and the timed
// calls with their seconds (each sample's slowest rank, as the figures). Summed over the runs or
// racing rounds a case pools. Absent in a case read from a file that predates it.
struct CaseCost {
  double case_s = 0;
  double warmup_s = 0;
  double timed_s = 0;
  std::size_t timed_calls = 0;

  CaseCost& operator+=(const CaseCost& other);
};

struct CaseResult {
  Case spec;
  std::string setting;  // the setting's name (spec.setting_index is only meaningful within a plan)
  int nranks = 1;
  CaseStatus status = CaseStatus::Ok;
  std::string reason;   // why it failed or was skipped; empty when ok
  SampleStats time_us;  // per-iteration time (or per-batch means), max over ranks, in microseconds
  SampleUnit sample_unit = SampleUnit::Iteration;  // what one time_us sample stands for
  std::size_t sample_block = 1;                    // Block: iterations per sample
  double pipelined_us = 0;                // total / iterations of the longest batch, from the samples
  std::optional<LoopFigure> nccl_tests;   // where the backend measures it (NCCL)
  double algbw_gbps = 0;                  // from the median
  double busbw_gbps = 0;                  // from the median
  std::int64_t wrong = -1;                // mismatching elements summed over ranks; -1: not checked
  std::optional<NcclChoice> nccl_choice;  // NCCL backend, default setting: what NCCL chose by itself
  // A repeated sweep (--repeat N): each run's median (and nccl-tests figure), in run order;
  // empty for a single run. time_us then summarises the samples of every run, pooled.
  std::vector<double> run_medians_us;
  std::vector<double> run_nccl_tests_us;
  // The samples time_us summarises, in microseconds: kept in memory for pooling runs, never written.
  std::vector<double> samples_us;
  // The finalists' re-measure (sweep/confirm_round's fold_rounds): each round's median, in round
  // order, the rounds measured side by side; the tuner's paired rule compares them round by round
  // (measure/decision's paired_clearly_faster). In memory only, never written.
  std::vector<double> round_medians_us;
  // A raced sweep (sweep/raced_sweep): each racing round's median, in round order, from round 0
  // for as long as its rounds ran side by side. The finalists' re-measure counts them as its first
  // rounds (sweep/race_rounds). In memory only, never written.
  std::vector<double> race_round_medians_us;
  std::optional<RacedOut> raced_out;  // racing: dropped here before the end of the race
  std::optional<CaseCost> cost;       // set by the sweep that ran the case (sweep_runner)

  bool raced_out_here() const { return raced_out.has_value(); }

  // Which rank arrived last at each iteration, tallied per rank (MPI host backend, rank 0), and the
  // iterations behind it (kept in memory for pooling runs, never written).
  std::optional<ArrivalTally> arrivals;
  std::vector<LastArrival> arrival_samples;
  // Each rank's share of the CPU over the timed loops (MPI host backend, rank 0; index = rank),
  // for the straggler finding; empty when not measured. In memory only (the mean over pooled runs).
  std::vector<double> cpu_share;
  // A case of a group spec other than world: every group's figures; the case's own figures above
  // are the slowest group's.
  std::optional<CaseGroups> groups;

  bool measured() const { return status == CaseStatus::Ok || status == CaseStatus::WrongData; }
};

// A case that did not run, with its reason.
CaseResult failed_case(const Case& spec, const std::string& setting, int nranks, CaseStatus status,
                       std::string reason);

// Fills statistics and bandwidths from per-iteration seconds; sets WrongData when wrong > 0.
CaseResult measured_case(const Case& spec, const std::string& setting, int nranks,
                         const std::vector<double>& seconds, double pipelined_seconds, std::int64_t wrong);
// The same from a whole sampling run: also its sample unit and, where it has one, nccl-tests'
// figure.
CaseResult measured_case(const Case& spec, const std::string& setting, int nranks, const SampleRun& run,
                         std::int64_t wrong);

// A case run by every group of `layout` at once: `group_seconds[g]` is group g's per-iteration
// seconds (max over its ranks), in the layout's order. The case's figures are those of the group
// with the longest median; `run` gives the sampling's unit and pipelined time.
CaseResult grouped_case(const Case& spec, const std::string& setting, const GroupLayout& layout,
                        const std::vector<std::vector<double>>& group_seconds, const SampleRun& run,
                        std::int64_t wrong);

LoopFigure loop_figure(const Case& spec, int nranks, double seconds_per_iteration);

}  // namespace commtune
