#include "replay/replay_verdict.hpp"

#include <numeric>

#include "core/name_table.hpp"
#include "measure/decision.hpp"

namespace commtune {

namespace {

constexpr NameTable<ReplayVerdict, 6> kVerdictNames{{{ReplayVerdict::Baseline, "baseline"},
                                                     {ReplayVerdict::Faster, "faster"},
                                                     {ReplayVerdict::Slower, "slower"},
                                                     {ReplayVerdict::Equal, "equal"},
                                                     {ReplayVerdict::Undecided, "undecided"},
                                                     {ReplayVerdict::Failed, "failed"}}};

}  // namespace

std::string name_of(ReplayVerdict verdict) { return std::string(name_in(kVerdictNames, verdict)); }

double money_of(double saved_s, double steps, int gpus, const Price& price) {
  return saved_s * steps * static_cast<double>(gpus) * price.per_gpu_hour / 3600.0;
}

namespace {

std::vector<CallFigure> call_figures(const SettingReplay& replay) {
  std::vector<CallFigure> calls;
  for (const auto& seconds : replay.call_seconds) calls.push_back({summarize(seconds).median, 0});
  const double total = std::accumulate(calls.begin(), calls.end(), 0.0,
                                       [](double sum, const CallFigure& c) { return sum + c.median_s; });
  if (total > 0)
    for (auto& c : calls) c.share = c.median_s / total;
  return calls;
}

ReplayVerdict verdict_of(const Comparison& c, const DecisionRule& rule) {
  if (clearly_faster(c, rule)) return ReplayVerdict::Faster;
  if (clearly_slower(c, rule)) return ReplayVerdict::Slower;
  if (practically_equal(c, rule)) return ReplayVerdict::Equal;
  return ReplayVerdict::Undecided;
}

MoneyFigure money_figure(const ChangeFigure& f, const Price& price, int gpus) {
  MoneyFigure m{.per_1000_steps = money_of(f.saved_s, 1000, gpus, price),
                .per_1000_low = money_of(f.saved_low_s, 1000, gpus, price),
                .per_1000_high = money_of(f.saved_high_s, 1000, gpus, price),
                .per_run = std::nullopt,
                .per_run_low = std::nullopt,
                .per_run_high = std::nullopt};
  if (price.steps_per_run > 0) {
    const auto steps = static_cast<double>(price.steps_per_run);
    m.per_run = money_of(f.saved_s, steps, gpus, price);
    m.per_run_low = money_of(f.saved_low_s, steps, gpus, price);
    m.per_run_high = money_of(f.saved_high_s, steps, gpus, price);
  }
  return m;
}

// The change's interval: the ratio of the medians wherever both lie in their intervals.
ChangeFigure change_figure(const SampleStats& base, const SampleStats& step, const ReplayOptions& options,
                           int gpus) {
  const Comparison c = compare_stats(base, step);
  ChangeFigure f{.change = c.change,
                 .low = step.median_ci_low / base.median_ci_high - 1,
                 .high = step.median_ci_high / base.median_ci_low - 1,
                 .verdict = verdict_of(c, options.rule),
                 .saved_s = base.median - step.median,
                 .saved_low_s = -(step.median_ci_high / base.median_ci_low - 1) * base.median,
                 .saved_high_s = -(step.median_ci_low / base.median_ci_high - 1) * base.median,
                 .money = std::nullopt};
  if (options.price) f.money = money_figure(f, *options.price, gpus);
  return f;
}

}  // namespace

std::vector<SettingFigures> judge_replay(const std::vector<SettingReplay>& settings,
                                         const ReplayOptions& options, int gpus) {
  std::vector<SettingFigures> out;
  const SettingReplay* base = nullptr;
  for (const auto& s : settings)
    if (s.setting.is_default() && !s.step_seconds.empty()) base = &s;
  const SampleStats base_stats = base ? summarize(base->step_seconds) : SampleStats{};
  for (const SettingReplay& s : settings) {
    SettingFigures f{.setting = s.setting.name,
                     .verdict = ReplayVerdict::Failed,
                     .reason = s.failure.value_or(""),
                     .step = {},
                     .calls = {},
                     .change = std::nullopt};
    if (s.step_seconds.empty()) {
      if (f.reason.empty()) f.reason = "no step replayed";
      out.push_back(f);
      continue;
    }
    f.step = summarize(s.step_seconds);
    f.calls = call_figures(s);
    if (&s == base) {
      f.verdict = ReplayVerdict::Baseline;
    } else if (base) {
      f.change = change_figure(base_stats, f.step, options, gpus);
      f.verdict = f.change->verdict;
    } else {
      f.verdict = ReplayVerdict::Undecided;
    }
    out.push_back(f);
  }
  return out;
}

}  // namespace commtune
