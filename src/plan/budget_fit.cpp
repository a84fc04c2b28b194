#include "plan/budget_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/errors.hpp"
#include "core/text_format.hpp"
#include "plan/duration.hpp"
#include "plan/sizes.hpp"

namespace commtune {
namespace {

std::string number(double value) { return printf_string("%g", value); }

std::string fraction(double f) { return "1/" + number(std::round(1 / f)); }

// One cut of the ladder: the options cut once more, with what changed, or nothing when this
// knob is at its floor.
struct Cut {
  SweepOptions options;
  std::string what;
};

// Racing measures the survivors again each round, reopening the settings it cannot keep open:
// where that costs more than the sampling it saves (NCCL's worker starts, few sizes), measuring
// everything once is cheaper.
// `raced`: the expected seconds of `o` as it is.
std::optional<Cut> race_only_where_it_pays(const SweepOptions& o, double raced,
                                           const std::vector<Setting>& settings, const PlanLimits& limits,
                                           const CostModel& model) {
  if (!o.race.enabled) return std::nullopt;
  Cut cut{o, ""};
  cut.options.race.enabled = false;
  const double exhaustive = plan_cost(make_plan(cut.options, settings, limits), model).expected_s;
  if (exhaustive >= raced) return std::nullopt;
  const std::string reopening = settings.size() > model.sessions_kept
                                    ? "reopening the settings beyond the " +
                                          std::to_string(model.sessions_kept) + " kept open, " +
                                          number(model.setting_start_s) + " s each, and "
                                    : "";
  cut.what = "racing off: measuring the survivors again each round (" + reopening +
             "each case's overhead) costs more than it saves (about " + format_duration(exhaustive) +
             " measured once, " + format_duration(raced) + " raced)";
  return cut;
}

std::optional<Cut> race_harder(const SweepOptions& o) {
  if (!o.race.enabled || o.race.first_fraction / 2 < kLeastRaceFirstFraction * 0.999) return std::nullopt;
  Cut cut{o, ""};
  cut.options.race.first_fraction = o.race.first_fraction / 2;
  cut.what = "racing's first round " + fraction(o.race.first_fraction) + " -> " +
             fraction(cut.options.race.first_fraction) + " of the per-case sampling";
  return cut;
}

std::optional<Cut> shorter_cases(const SweepOptions& o) {
  Cut cut{o, ""};
  StoppingRule& rule = cut.options.stopping;
  if (o.stopping.fixed_iterations) {
    const std::size_t n = *o.stopping.fixed_iterations;
    if (n <= kLeastFixedIterations) return std::nullopt;
    rule.fixed_iterations = std::max(kLeastFixedIterations, n / 2);
    cut.what =
        "iterations per case (-n) " + std::to_string(n) + " -> " + std::to_string(*rule.fixed_iterations);
    return cut;
  }
  if (o.stopping.max_time_s <= kLeastMaxTime * 1.0001) return std::nullopt;
  rule.max_time_s = std::max(kLeastMaxTime, o.stopping.max_time_s / 2);
  rule.min_time_s = std::min(rule.min_time_s, rule.max_time_s);
  cut.what = "max time per case " + number(o.stopping.max_time_s) + " s -> " + number(rule.max_time_s) + " s";
  return cut;
}

std::optional<Cut> fewer_sizes(const SweepOptions& o) {
  if (expand(o.sizes).size() <= 2) return std::nullopt;
  Cut cut{o, ""};
  SizeRange& sizes = cut.options.sizes;
  if (o.sizes.step_bytes > 0 && o.sizes.factor <= 1) {
    sizes.step_bytes = o.sizes.step_bytes * 2;
    cut.what = "size step (-i) " + format_size(o.sizes.step_bytes) + " -> " + format_size(sizes.step_bytes);
    return cut;
  }
  if (o.sizes.factor * 2 > kMostBudgetFactor * 1.0001) return std::nullopt;
  sizes.factor = o.sizes.factor * 2;
  cut.what = "size factor (-f) x" + number(o.sizes.factor) + " -> x" + number(sizes.factor);
  return cut;
}

using CutStep = std::optional<Cut> (*)(const SweepOptions&);

}  // namespace

double remeasure_reserve_s(double budget_s, std::size_t settings) {
  return settings > 1 ? budget_s * kRemeasureShare : 0.0;
}

BudgetFit fit_to_budget(const SweepOptions& options, const std::vector<Setting>& settings,
                        const PlanLimits& limits, const CostModel& model, double budget, double reserve_s) {
  const double budget_s = budget - reserve_s;  // the sweep's part
  BudgetFit fit{make_plan(options, settings, limits), {}, {}};
  fit.estimate = plan_cost(fit.plan, model);
  SweepOptions current = options;
  const auto apply = [&](const Cut& cut) {
    current = cut.options;
    fit.plan = make_plan(current, settings, limits);
    fit.estimate = plan_cost(fit.plan, model);
    fit.cuts.push_back(cut.what);
  };
  if (fit.estimate.expected_s > budget_s)
    if (const auto cut = race_only_where_it_pays(current, fit.estimate.expected_s, settings, limits, model))
      apply(*cut);
  for (CutStep step : {&race_harder, &shorter_cases, &fewer_sizes}) {
    while (fit.estimate.expected_s > budget_s) {
      const std::optional<Cut> cut = step(current);
      if (!cut) break;
      apply(*cut);
    }
  }
  if (fit.estimate.expected_s > budget_s)
    throw InputError("--budget " + format_duration(budget) + ": this sweep needs about " +
                     format_duration(fit.estimate.expected_s) + " even cut to its smallest plan (" +
                     plan_summary(fit.plan, fit.estimate) + ")" +
                     (reserve_s > 0 ? ", and the finalists' re-measure keeps " + format_duration(reserve_s) +
                                          " of the budget"
                                    : "") +
                     "; give it more time, or fewer settings, sizes or collectives");
  return fit;
}

std::string plan_summary(const Plan& plan, const CostRange& estimate) {
  std::set<std::size_t> settings;
  std::map<Collective, std::set<std::uint64_t>> sizes_of;  // each collective rounds sizes its own way
  for (const Case& c : plan.cases) {
    settings.insert(c.setting_index);
    sizes_of[c.collective].insert(c.bytes);
  }
  std::size_t most_sizes = 0;
  for (const auto& [collective, sizes] : sizes_of) most_sizes = std::max(most_sizes, sizes.size());
  std::string text = std::to_string(plan.cases.size()) + " cases (" + std::to_string(settings.size()) +
                     " settings x " + std::to_string(sizes_of.size()) + " collectives x " +
                     std::to_string(most_sizes) + " sizes x " +
                     std::to_string(plan.options.placements.size()) + " placements)";
  if (plan.options.repeat > 1) text += " x " + std::to_string(plan.options.repeat) + " runs";
  if (plan.options.race.enabled)
    text += ", racing " + std::to_string(plan.options.race.rounds) + " rounds from " +
            fraction(plan.options.race.first_fraction);
  return text + ": about " + format_duration(estimate.expected_s) + ", at most " +
         format_duration(estimate.most_s);
}

}  // namespace commtune
