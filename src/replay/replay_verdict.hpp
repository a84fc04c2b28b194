#pragma once
// What a replay's measurement says, as pure functions of it (docs/replay.md): per setting the
// step's communication time (median of every replayed step, its ~95% distribution-free interval),
// each call's median and share of the step, and against the default the change with an interval
// and the one decision rule's verdict (measure/decision); with a price, the money the change saves
// or costs per 1000 steps and per run (GPUs = the job's ranks).
#include <optional>
#include <string>
#include <vector>

#include "measure/statistics.hpp"
#include "replay/replay_job.hpp"
#include "replay/replay_rounds.hpp"

namespace commtune {

enum class ReplayVerdict { Baseline, Faster, Slower, Equal, Undecided, Failed };
std::string name_of(ReplayVerdict verdict);

struct CallFigure {
  double median_s = 0;  // the call's median seconds a step (its repeats together)
  double share = 0;     // of the sum of the calls' medians
};

// Money at the price, saved (positive) or spent (negative), with the change's interval.
struct MoneyFigure {
  double per_1000_steps = 0, per_1000_low = 0, per_1000_high = 0;
  std::optional<double> per_run, per_run_low, per_run_high;  // with --steps-per-run
};

struct ChangeFigure {
  double change = 0, low = 0, high = 0;  // (setting - default) / default; negative: faster
  ReplayVerdict verdict = ReplayVerdict::Undecided;
  double saved_s = 0, saved_low_s = 0, saved_high_s = 0;  // a step's seconds saved (negative: lost)
  std::optional<MoneyFigure> money;
};

struct SettingFigures {
  std::string setting;
  ReplayVerdict verdict = ReplayVerdict::Failed;  // Baseline for the default
  std::string reason;                             // why it failed
  SampleStats step;                               // of every replayed step
  std::vector<CallFigure> calls;
  std::optional<ChangeFigure> change;  // against the default, where both have steps
};

// Money of `saved_s` seconds a step over `steps` steps of a job of `gpus` GPUs.
double money_of(double saved_s, double steps, int gpus, const Price& price);

std::vector<SettingFigures> judge_replay(const std::vector<SettingReplay>& settings,
                                         const ReplayOptions& options, int gpus);

}  // namespace commtune
