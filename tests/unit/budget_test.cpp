#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "plan/budget_fit.hpp"
#include "plan/cost_model.hpp"
#include "plan/duration.hpp"
#include "plan/plan.hpp"
#include "plan/race_schedule.hpp"

namespace commtune {
namespace {

TEST(Duration, ReadsUnitsAsAJobScriptWritesThem) {
  EXPECT_DOUBLE_EQ(parse_duration("90s"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("90"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("15m"), 900);
  EXPECT_DOUBLE_EQ(parse_duration("1h30m"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("1h30m15s"), 5415);
  EXPECT_DOUBLE_EQ(parse_duration("1.5h"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("2H"), 7200);
  EXPECT_DOUBLE_EQ(parse_duration("1m30"), 90);  // the last part may omit "s"
}

TEST(Duration, RefusesWhatIsNotADuration) {
  for (const char* bad : {"", "0", "0m", "-5m", "15x", "2d", "30m1h", "1m2m", "m", ".m", "1..5m", "nan",
                          "inf", "1e3", "169h", " 5m", "5m "}) {
    EXPECT_THROW(parse_duration(bad), InputError) << bad;
  }
  try {
    parse_duration("15x");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'15x'"), std::string::npos) << e.what();
  }
}

TEST(Duration, PrintsWholeSecondsMinutesAndHours) {
  EXPECT_EQ(format_duration(0.4), "0s");
  EXPECT_EQ(format_duration(45), "45s");
  EXPECT_EQ(format_duration(890), "14m50s");
  EXPECT_EQ(format_duration(7500), "2h05m");
  EXPECT_EQ(format_duration(-3), "0s");
}

const CostModel kModel{0.05, 0.01, 1e-5, 1e9};

Case sized(std::uint64_t bytes, Collective collective = Collective::AllReduce) {
  Case c;
  c.bytes = bytes;
  c.collective = collective;
  return c;
}

TEST(CostModel, ACaseCostsItsWarmUpCheckSamplingAndOverhead) {
  StoppingRule fixed;
  fixed.fixed_iterations = 100;
  fixed.warmup_iterations = 5;
  const double t = iteration_seconds(kModel, 1'000'000);  // 10 us + 1 ms
  EXPECT_DOUBLE_EQ(t, 1e-5 + 1e-3);
  const CostRange c = case_cost(kModel, fixed, sized(1'000'000), true);
  EXPECT_NEAR(c.expected_s, 0.01 + (5 + 2 + 100) * t, 1e-12);
  EXPECT_DOUBLE_EQ(c.expected_s, c.most_s);
  EXPECT_NEAR(case_cost(kModel, fixed, sized(1'000'000), false).expected_s, 0.01 + 105 * t, 1e-12);
  // A rooted collective's samples cost the backend's factor in wall time.
  CostModel grouped = kModel;
  grouped.rooted_factor = 8;
  EXPECT_NEAR(case_cost(grouped, fixed, sized(1'000'000, Collective::Broadcast), false).expected_s,
              0.01 + (5 + 800) * t, 1e-12);
  EXPECT_NEAR(case_cost(grouped, fixed, sized(1'000'000), false).expected_s, 0.01 + 105 * t, 1e-12);
}

// A round 0 whose warm-up may end (StoppingRule::warmup_enough_s) costs 3 warm-up calls where they
// last that long, on a backend whose timer ends it (the MPI host backend's); -w calls elsewhere.
TEST(CostModel, ARoundZeroWarmUpCutShortCostsThreeCallsWhereTheBackendCutsIt) {
  StoppingRule fixed;
  fixed.fixed_iterations = 100;
  fixed.warmup_iterations = 5;
  fixed.warmup_enough_s = 1e-3;
  const double t = iteration_seconds(kModel, 1'000'000);  // ~1 ms: 3 calls last the 1 ms
  CostModel cuts = kModel;
  cuts.warmup_cut = true;
  EXPECT_NEAR(case_cost(cuts, fixed, sized(1'000'000), false).expected_s, 0.01 + (3 + 100) * t, 1e-12);
  EXPECT_NEAR(case_cost(kModel, fixed, sized(1'000'000), false).expected_s, 0.01 + (5 + 100) * t, 1e-12);
  const double small = iteration_seconds(kModel, 1000);  // ~11 us: every -w call runs
  EXPECT_NEAR(case_cost(cuts, fixed, sized(1000), false).expected_s, 0.01 + (5 + 100) * small, 1e-12);
}

TEST(CostModel, AnAdaptiveCaseIsBetweenItsLeastAndMostTime) {
  StoppingRule rule;  // 10 samples, 0.02 s to 0.5 s
  const CostRange small = case_cost(kModel, rule, sized(8), false);
  EXPECT_GE(small.expected_s, rule.min_time_s);
  EXPECT_LT(small.expected_s, rule.max_time_s);
  EXPECT_GE(small.most_s, rule.max_time_s);
  // A size whose least samples alone take longer than the max time costs those samples.
  const std::uint64_t huge = 1ull << 30;  // ~1.07 s an iteration at 1 GB/s
  const CostRange big = case_cost(kModel, rule, sized(huge), false);
  EXPECT_GE(big.expected_s, 10 * iteration_seconds(kModel, huge));
  EXPECT_GE(big.most_s, big.expected_s);
}

std::vector<Setting> settings(int n) {
  std::vector<Setting> out{Setting{"default", "", {}, {}}};
  for (int i = 1; i < n; ++i)
    out.push_back(Setting{"s" + std::to_string(i), "", {{"k", std::to_string(i)}}, {}});
  return out;
}

SweepOptions sweep(bool racing) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 16u << 20, 2.0, 0};  // 15 sizes
  o.collectives = {Collective::AllReduce};
  o.race.enabled = racing;
  return o;
}

TEST(CostModel, RacingCostsLessThanMeasuringEverythingAndReopensOnlyWhatItCannotKeep) {
  const PlanLimits limits{4, 4, 0};
  const Plan full = make_plan(sweep(false), settings(6), limits);
  const Plan raced = make_plan(sweep(true), settings(6), limits);
  const CostRange e = plan_cost(full, kModel), r = plan_cost(raced, kModel);
  EXPECT_LT(r.expected_s, e.expected_s);
  // Round 0 alone (every case at 1/16 of its sampling) costs less than measuring everything once.
  Plan first = raced;
  first.options.race.rounds = 1;
  EXPECT_LT(plan_cost(first, kModel).expected_s, e.expected_s * 0.7);
  // At most: every setting survives every round; round 0 opens all 6, each later round (2 of
  // the 3) reopens the 5 the cache cannot keep (kModel keeps one open).
  EXPECT_GE(r.most_s, (6 + 2 * 5) * kModel.setting_start_s);
  // A backend that keeps every setting open pays each start once, and no later round pays any.
  CostModel keeps_all = kModel;
  keeps_all.sessions_kept = 6;
  const CostRange k = plan_cost(raced, keeps_all);
  EXPECT_NEAR(r.most_s - k.most_s, 2 * 5 * kModel.setting_start_s, 1e-9);
  // Only round 0 checks the data: later rounds' cases cost the same with or without the check.
  Plan unchecked = raced;
  unchecked.options.check = false;
  Plan checked_first = first;
  Plan unchecked_first = first;
  unchecked_first.options.check = false;
  EXPECT_NEAR(plan_cost(raced, kModel).most_s - plan_cost(unchecked, kModel).most_s,
              plan_cost(checked_first, kModel).most_s - plan_cost(unchecked_first, kModel).most_s, 1e-9);
  EXPECT_GT(plan_cost(checked_first, kModel).most_s, plan_cost(unchecked_first, kModel).most_s);
  EXPECT_GE(e.expected_s, 6 * kModel.setting_start_s);
  EXPECT_LT(e.expected_s, 6 * kModel.setting_start_s + 6 * 15 * 2 * 0.6);
  SweepOptions repeated = sweep(false);
  repeated.repeat = 3;
  EXPECT_NEAR(plan_cost(make_plan(repeated, settings(6), limits), kModel).expected_s, 3 * e.expected_s, 1e-9);
}

TEST(BudgetFit, RacingIsTurnedOffWhereOpeningSettingsEachRoundCostsMoreThanItSaves) {
  const PlanLimits limits{4, 4, 0};
  const CostModel slow_start{5.0, 0.01, 1e-5, 1e9};  // an NCCL-like worker start per setting
  SweepOptions few_sizes = sweep(true);
  few_sizes.sizes = SizeRange{1024, 4096, 2.0, 0};  // 3 sizes: little sampling to save
  const Plan raced = make_plan(few_sizes, settings(6), limits);
  const double raced_s = plan_cost(raced, slow_start).expected_s;
  SweepOptions once = few_sizes;
  once.race.enabled = false;
  const double once_s = plan_cost(make_plan(once, settings(6), limits), slow_start).expected_s;
  ASSERT_LT(once_s, raced_s);
  // Between the two: racing does not fit, measuring every case once does.
  const BudgetFit fit = fit_to_budget(few_sizes, settings(6), limits, slow_start, (once_s + raced_s) / 2);
  ASSERT_FALSE(fit.cuts.empty());
  EXPECT_EQ(
      fit.cuts[0].rfind("racing off: measuring the survivors again each round (reopening the settings beyond "
                        "the 1 kept open, 5 s each, and each case's overhead) costs more than it saves",
                        0),
      0u)
      << fit.cuts[0];
  EXPECT_FALSE(fit.plan.options.race.enabled);
  // Where racing pays (cheap starts), it stays on and is made harder instead.
  const BudgetFit cheap =
      fit_to_budget(sweep(true), settings(6), limits, kModel,
                    plan_cost(make_plan(sweep(true), settings(6), limits), kModel).expected_s * 0.97);
  EXPECT_TRUE(cheap.plan.options.race.enabled);
}

TEST(BudgetFit, APlanThatFitsIsLeftAsItIs) {
  const PlanLimits limits{4, 4, 0};
  const BudgetFit fit = fit_to_budget(sweep(true), settings(6), limits, kModel, 3600);
  EXPECT_TRUE(fit.cuts.empty());
  EXPECT_EQ(fit.plan.cases.size(), make_plan(sweep(true), settings(6), limits).cases.size());
  EXPECT_LE(fit.estimate.expected_s, 3600);
}

TEST(BudgetFit, CutsRacingFirstThenCaseTimeThenSizesUntilItFits) {
  const PlanLimits limits{4, 4, 0};
  const Plan asked = make_plan(sweep(true), settings(6), limits);
  const double asked_s = plan_cost(asked, kModel).expected_s;
  // A budget a little under the asked plan: racing harder is enough.
  const BudgetFit mild = fit_to_budget(sweep(true), settings(6), limits, kModel, asked_s * 0.97);
  ASSERT_FALSE(mild.cuts.empty());
  EXPECT_NE(mild.cuts[0].find("racing's first round 1/16 -> 1/32"), std::string::npos) << mild.cuts[0];
  EXPECT_EQ(mild.plan.cases.size(), asked.cases.size());
  EXPECT_LE(mild.estimate.expected_s, asked_s * 0.97);
  // A much smaller one: every knob is cut, in order, and the plan has fewer sizes.
  const double tight = asked_s * 0.25;
  const BudgetFit hard = fit_to_budget(sweep(true), settings(6), limits, kModel, tight);
  EXPECT_LE(hard.estimate.expected_s, tight);
  ASSERT_GE(hard.cuts.size(), 3u);
  std::size_t race_cuts = 0, time_cuts = 0, size_cuts = 0;
  std::string order;
  for (const std::string& cut : hard.cuts) {
    const char kind = cut.rfind("racing", 0) == 0        ? 'r'
                      : cut.rfind("max time", 0) == 0    ? 't'
                      : cut.rfind("size factor", 0) == 0 ? 'f'
                                                         : '?';
    if (order.empty() || order.back() != kind) order += kind;
    race_cuts += kind == 'r';
    time_cuts += kind == 't';
    size_cuts += kind == 'f';
  }
  EXPECT_EQ(race_cuts, 2u);  // 1/16 -> 1/32 -> 1/64
  EXPECT_EQ(order.find('?'), std::string::npos);
  EXPECT_TRUE(order == "rt" || order == "rtf") << order;
  EXPECT_GE(hard.plan.options.stopping.max_time_s, kLeastMaxTime);
  EXPECT_LE(hard.plan.options.stopping.min_time_s, hard.plan.options.stopping.max_time_s);
  EXPECT_LE(hard.plan.cases.size(), asked.cases.size());
}

TEST(BudgetFit, FewerSizesComeLastAndKeepTheRangeEnds) {
  const PlanLimits limits{4, 4, 0};
  SweepOptions exhaustive = sweep(false);
  exhaustive.stopping.max_time_s = kLeastMaxTime;  // nothing to cut but sizes
  exhaustive.stopping.min_time_s = 0.01;
  const Plan asked = make_plan(exhaustive, settings(2), limits);
  const BudgetFit fit =
      fit_to_budget(exhaustive, settings(2), limits, kModel, plan_cost(asked, kModel).expected_s * 0.6);
  ASSERT_FALSE(fit.cuts.empty());
  EXPECT_EQ(fit.cuts[0], "size factor (-f) x2 -> x4");
  EXPECT_LT(fit.plan.cases.size(), asked.cases.size());
  EXPECT_EQ(fit.plan.cases.front().bytes, asked.cases.front().bytes);
}

TEST(BudgetFit, FixedIterationsAreHalvedDownToTen) {
  const PlanLimits limits{4, 4, 0};
  SweepOptions o = sweep(false);
  o.stopping.fixed_iterations = 1000;
  o.sizes = SizeRange{1u << 20, 1u << 20, 2.0, 0};  // one size: nothing else to cut
  const BudgetFit fit = fit_to_budget(
      o, settings(1), limits,
      CostModel{.setting_start_s = 0, .case_overhead_s = 0, .latency_s = 1e-5, .bytes_per_s = 1e9}, 0.05);
  ASSERT_TRUE(fit.plan.options.stopping.fixed_iterations);
  EXPECT_LT(*fit.plan.options.stopping.fixed_iterations, 1000u);
  EXPECT_GE(*fit.plan.options.stopping.fixed_iterations, kLeastFixedIterations);
  EXPECT_EQ(fit.cuts[0], "iterations per case (-n) 1000 -> 500");
}

TEST(BudgetFit, ABudgetNothingFitsIsRefusedWithTheTimeItWouldNeed) {
  const PlanLimits limits{4, 4, 0};
  try {
    fit_to_budget(sweep(true), settings(6), limits, kModel, 1);
    FAIL() << "a 1 s budget for 6 settings that take 0.05 s each to start and 24 cases was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--budget 1s: this sweep needs about ", 0), 0u) << what;
    EXPECT_NE(what.find("even cut to its smallest plan"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST(BudgetFit, ThePlanSummarySaysWhatRunsAndTheEstimate) {
  const Plan plan = make_plan(sweep(true), settings(3), PlanLimits{4, 4, 0});
  const std::string text = plan_summary(plan, CostRange{130, 270});
  EXPECT_EQ(text,
            "90 cases (3 settings x 1 collectives x 15 sizes x 2 placements), racing 3 rounds from 1/16: "
            "about 2m10s, at most 4m30s");
}

TEST(BudgetFit, TheSweepIsFittedIntoTheBudgetLessTheRemeasuresReserve) {
  const PlanLimits limits{4, 4, 0};
  EXPECT_DOUBLE_EQ(remeasure_reserve_s(400, 1), 0.0);  // the default alone: nothing to re-measure
  EXPECT_DOUBLE_EQ(remeasure_reserve_s(400, 6), 400 * kRemeasureShare);
  const double asked_s = plan_cost(make_plan(sweep(true), settings(6), limits), kModel).expected_s;
  // A budget the sweep alone fits, but not with the reserve kept: cut until it fits in the rest.
  const double budget = asked_s * 1.1;
  const BudgetFit fit =
      fit_to_budget(sweep(true), settings(6), limits, kModel, budget, remeasure_reserve_s(budget, 6));
  EXPECT_FALSE(fit.cuts.empty());
  EXPECT_LE(fit.estimate.expected_s, budget * (1 - kRemeasureShare));
  EXPECT_TRUE(fit_to_budget(sweep(true), settings(6), limits, kModel, budget).cuts.empty());
  try {
    fit_to_budget(sweep(true), settings(6), limits, kModel, 2, remeasure_reserve_s(2, 6));
    FAIL() << "a budget nothing fits was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--budget 2s: this sweep needs about ", 0), 0u) << what;
    EXPECT_NE(what.find("), and the finalists' re-measure keeps "), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace commtune
