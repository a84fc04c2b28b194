// sweep --repeat N, the parts without MPI: the rotated case order of each run, the pooling of a
// case's runs (pooled statistics, run medians, a failed run), the pooling sink (one case per case,
// unfinished cases passed on at the end), and the results file's run fields (round trip, checks).
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "plan/plan.hpp"
#include "writers/case_collector.hpp"
#include "writers/run_pooling_sink.hpp"
#include "results/results_json.hpp"
#include "results/run_pool.hpp"
#include "sweep/repeat_order.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

Plan two_setting_plan() {
  SweepOptions o;
  o.sizes.min_bytes = 1024;
  o.sizes.max_bytes = 8192;
  o.collectives = {Collective::AllReduce};
  return make_plan(o, {Setting{"default", "", {}, {}}, Setting{"ring", "", {{"x", "1"}}, {}}}, PlanLimits{4});
}

TEST(Repeat, RunsStartAtRotatedSizeBoundaries) {
  const Plan plan = two_setting_plan();  // 2 settings x 4 sizes x 2 placements
  ASSERT_EQ(plan.cases.size(), 16u);
  EXPECT_EQ(rotated_plan(plan, 0, 3).cases.front().index, 0u);
  const Plan second = rotated_plan(plan, 1, 3), third = rotated_plan(plan, 2, 3);
  // 8 (setting, size) groups: run 1 starts at group 8/3 = 2, run 2 at group 16/3 = 5.
  EXPECT_EQ(second.cases.front().index, 4u);
  EXPECT_EQ(third.cases.front().index, 10u);
  EXPECT_EQ(third.cases.front().placement, Placement::OutOfPlace);
  EXPECT_EQ(second.cases.size(), plan.cases.size());
  std::vector<std::size_t> seen;
  for (const auto& c : third.cases) seen.push_back(c.index);
  std::sort(seen.begin(), seen.end());
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i);  // every case, once
}

CaseResult run_of(double scale) {
  return testing::synthetic_case("default", Collective::AllReduce, 4096, Placement::OutOfPlace,
                                 {10 * scale, 11 * scale, 12 * scale, 13 * scale});
}

TEST(Repeat, PoolingKeepsEveryRunsMedianAndPoolsTheSamples) {
  const CaseResult pooled = pool_runs({run_of(1), run_of(2), run_of(3)}, 3);
  EXPECT_EQ(pooled.time_us.count, 12u);
  ASSERT_EQ(pooled.run_medians_us.size(), 3u);
  EXPECT_DOUBLE_EQ(pooled.run_medians_us[0], 11.5);
  EXPECT_DOUBLE_EQ(pooled.run_medians_us[2], 34.5);
  EXPECT_DOUBLE_EQ(pooled.time_us.min, 10);
  EXPECT_DOUBLE_EQ(pooled.time_us.max, 39);
  EXPECT_GT(pooled.busbw_gbps, 0);
}

TEST(Repeat, PoolingAveragesEachRanksCpuShareWhileEveryRunHasThem) {
  CaseResult a = run_of(1), b = run_of(1);
  a.cpu_share = {0.4, 0.2};
  b.cpu_share = {0.2, 0.1};
  const CaseResult pooled = pool_runs({a, b}, 2);
  ASSERT_EQ(pooled.cpu_share.size(), 2u);
  EXPECT_NEAR(pooled.cpu_share[0], 0.3, 1e-12);
  EXPECT_NEAR(pooled.cpu_share[1], 0.15, 1e-12);
  b.cpu_share.clear();
  EXPECT_TRUE(pool_runs({a, b}, 2).cpu_share.empty());
}

TEST(Repeat, AFailedRunDecidesTheCase) {
  CaseResult bad = failed_case(run_of(1).spec, "default", 4, CaseStatus::Failed, "MPI_ERR_OTHER");
  const CaseResult pooled = pool_runs({run_of(1), bad, run_of(1)}, 3);
  EXPECT_EQ(pooled.status, CaseStatus::Failed);
  EXPECT_EQ(pooled.reason, "run 2 of 3: MPI_ERR_OTHER");
}

// What a pooled case cost is what its runs cost, the failed one's included; a case read from a
// file without costs has none.
TEST(Repeat, PoolingAddsUpTheRunsCosts) {
  CaseResult a = run_of(1), b = run_of(2);
  EXPECT_FALSE(pool_runs({a, b}, 2).cost.has_value());
  a.cost = CaseCost{.case_s = 0.5, .warmup_s = 0.1, .timed_s = 0.25, .timed_calls = 100};
  b.cost = CaseCost{.case_s = 0.25, .warmup_s = 0.05, .timed_s = 0.125, .timed_calls = 40};
  const CaseResult pooled = pool_runs({a, b}, 2);
  ASSERT_TRUE(pooled.cost.has_value());
  EXPECT_DOUBLE_EQ(pooled.cost->case_s, 0.75);
  EXPECT_DOUBLE_EQ(pooled.cost->warmup_s, 0.15);
  EXPECT_DOUBLE_EQ(pooled.cost->timed_s, 0.375);
  EXPECT_EQ(pooled.cost->timed_calls, 140u);
  CaseResult bad = failed_case(a.spec, "default", 4, CaseStatus::Failed, "MPI_ERR_OTHER");
  bad.cost = CaseCost{.case_s = 2, .warmup_s = 0, .timed_s = 0, .timed_calls = 0};
  const CaseResult failed = pool_runs({a, bad}, 2);
  ASSERT_TRUE(failed.cost.has_value());
  EXPECT_DOUBLE_EQ(failed.cost->case_s, 2.5);
  EXPECT_EQ(failed.cost->timed_calls, 100u);
}

// The cost goes into the results file with any status and reads back as it was written.
TEST(Repeat, ACaseCostRoundTripsThroughTheResultsFile) {
  CaseResult a = run_of(1);
  a.spec.root = -1;  // as an all-reduce's case reads
  EXPECT_FALSE(to_json(a).contains("cost"));
  a.cost = CaseCost{.case_s = 0.5, .warmup_s = 0.125, .timed_s = 0.25, .timed_calls = 1000};
  const CaseResult back = case_from_json(to_json(a), "r.json: cases[0]");
  ASSERT_TRUE(back.cost.has_value());
  EXPECT_DOUBLE_EQ(back.cost->case_s, 0.5);
  EXPECT_DOUBLE_EQ(back.cost->warmup_s, 0.125);
  EXPECT_DOUBLE_EQ(back.cost->timed_s, 0.25);
  EXPECT_EQ(back.cost->timed_calls, 1000u);
  CaseResult bad = failed_case(a.spec, "default", 4, CaseStatus::Failed, "MPI_ERR_OTHER");
  bad.cost = CaseCost{.case_s = 3, .warmup_s = 0, .timed_s = 0, .timed_calls = 0};
  EXPECT_DOUBLE_EQ(case_from_json(to_json(bad), "r.json: cases[0]").cost->case_s, 3);
  nlohmann::json j = to_json(a);
  j["cost"]["timed_s"] = -1;
  EXPECT_THROW(case_from_json(j, "r.json: cases[0]"), InputError);
  j = to_json(a);
  j["cost"]["spare_s"] = 1;
  EXPECT_THROW(case_from_json(j, "r.json: cases[0]"), InputError);
}

TEST(Repeat, PoolingSinkPassesEachCaseOnceAndTheUnfinishedAtTheEnd) {
  std::vector<CaseResult> kept;
  RunPoolingSink sink(3, std::make_unique<CaseCollector>(kept));
  CaseResult other = run_of(1);
  other.spec.bytes = 8192;
  for (int run = 0; run < 3; ++run) {
    sink.case_finished(run_of(1 + run));
    if (run < 2) sink.case_finished(other);  // interrupted before its third run
  }
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].run_medians_us.size(), 3u);
  sink.end(RunSummary{3, 0, 0, false});
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[1].spec.bytes, 8192u);
  EXPECT_EQ(kept[1].run_medians_us.size(), 2u);
}

TEST(Repeat, RunMediansRoundTripAndAreChecked) {
  const CaseResult pooled = pool_runs({run_of(1), run_of(2)}, 2);
  nlohmann::json j = to_json(pooled);
  j["root"] = -1;
  EXPECT_EQ(case_from_json(j, "c").run_medians_us, pooled.run_medians_us);
  nlohmann::json outside = j;
  outside["run_medians_us"][0] = 1000;
  EXPECT_THROW(case_from_json(outside, "c"), InputError);
  nlohmann::json empty = j;
  empty["run_medians_us"] = nlohmann::json::array();
  EXPECT_THROW(case_from_json(empty, "c"), InputError);
  nlohmann::json orphan = j;
  orphan["nccl_tests_run_us"] = {20.0};
  EXPECT_THROW(case_from_json(orphan, "c"), InputError);
}

}  // namespace
}  // namespace commtune
