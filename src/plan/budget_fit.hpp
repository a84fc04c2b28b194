#pragma once
// --budget: the planner fits the sweep into a wall time (docs/racing.md). The plan as asked is
// estimated first (plan/cost_model); while its expected time is over the budget, it is cut, one
// step at a time, in the order that loses the least of the answer (first of all, a racing sweep
// whose settings cost more to open once per round than racing saves is measured once instead):
//   1. racing harder: a shorter first round (1/16 of the per-case sampling, then 1/32, 1/64);
//   2. shorter cases: half the max time per case (or half of -n's iterations), down to 0.05 s
//      (10 iterations);
//   3. fewer sizes: twice the step factor (or the additive step), up to x16 (at least 2 sizes).
// What was cut is said, step by step. When even the smallest plan is over the budget the sweep
// is refused (InputError, exit 2) with the time it would need.
//
// A sweep of several settings ends with the finalists' re-measure (sweep/confirm_round), which
// the budget covers too: the sweep is fitted into the budget less a reserve for it
// (remeasure_reserve_s), and the re-measure runs its rounds in whatever time is left.
#include <string>
#include <vector>

#include "plan/cost_model.hpp"
#include "plan/plan.hpp"

namespace commtune {

struct BudgetFit {
  Plan plan;
  CostRange estimate;
  std::vector<std::string> cuts;  // what was changed, in order ("max time per case 0.5 s -> 0.25 s")
};

inline constexpr double kLeastRaceFirstFraction = 1.0 / 64;
inline constexpr double kLeastMaxTime = 0.05;
inline constexpr std::size_t kLeastFixedIterations = 10;
inline constexpr double kMostBudgetFactor = 16;

// The sweep's plan is fitted into `budget_s - reserve_s`.
BudgetFit fit_to_budget(const SweepOptions& options, const std::vector<Setting>& settings,
                        const PlanLimits& limits, const CostModel& model, double budget_s,
                        double reserve_s = 0);

// The share of a budget kept for the finalists' re-measure: none for a sweep of the default
// alone (it has nothing to re-measure), else kRemeasureShare of it.
inline constexpr double kRemeasureShare = 0.25;
double remeasure_reserve_s(double budget_s, std::size_t settings);

// "142 cases (3 settings x 2 collectives x 12 sizes x 2 placements), racing 4 rounds: about
// 2m10s, at most 4m30s": the plan and its estimate, for the banner.
std::string plan_summary(const Plan& plan, const CostRange& estimate);

}  // namespace commtune
