#include <gtest/gtest.h>

#include <algorithm>

#include "core/errors.hpp"
#include "plan/plan.hpp"

namespace commtune {
namespace {

SweepOptions small_sweep() {
  SweepOptions o;
  o.sizes = SizeRange{8, 1024, 4.0, 0};  // 8 32 128 512
  o.collectives = {Collective::AllReduce, Collective::AllGather};
  return o;
}

std::vector<Setting> two_settings() {
  return {Setting{"default", "", {}, {}},
          Setting{"ar-ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {Collective::AllReduce}}};
}

TEST(Planner, CrossesSettingsCollectivesSizesAndPlacements) {
  const Plan plan = make_plan(small_sweep(), two_settings(), PlanLimits{4, 4, 0});
  // default: allreduce 4 sizes + allgather 2 sizes (8 B and 32 B < 4 ranks x 16 B, nccl-tests'
  // share unit); ar-ring: allreduce only
  EXPECT_EQ(plan.cases.size(), (4u + 2u + 4u) * 2u);
  for (std::size_t i = 0; i < plan.cases.size(); ++i) EXPECT_EQ(plan.cases[i].index, i);
}

TEST(Planner, RunsSettingMajorWithPlacementsAdjacent) {
  const Plan plan = make_plan(small_sweep(), two_settings(), PlanLimits{4, 4, 0});
  EXPECT_TRUE(std::is_sorted(plan.cases.begin(), plan.cases.end(),
                             [](const Case& a, const Case& b) { return a.setting_index < b.setting_index; }));
  EXPECT_EQ(plan.cases[0].placement, Placement::OutOfPlace);
  EXPECT_EQ(plan.cases[1].placement, Placement::InPlace);
  EXPECT_EQ(plan.cases[0].bytes, plan.cases[1].bytes);
}

TEST(Planner, SettingRestrictedToACollectiveOnlyRunsIt) {
  const Plan plan = make_plan(small_sweep(), two_settings(), PlanLimits{4, 4, 0});
  for (const auto& c : plan.cases) {
    if (c.setting_index == 1) {
      EXPECT_EQ(c.collective, Collective::AllReduce);
    }
  }
}

TEST(Planner, RoundsGatherSizesToWholeElementsPerRank) {
  SweepOptions o = small_sweep();
  o.sizes = SizeRange{100, 100, 1.0, 0};
  o.collectives = {Collective::AllGather};
  const Plan plan = make_plan(o, {Setting{"default", "", {}, {}}}, PlanLimits{3, 3, 0});
  ASSERT_FALSE(plan.cases.empty());
  EXPECT_EQ(plan.cases[0].bytes, 96u);  // 3 ranks x 8 floats
  EXPECT_EQ(plan.cases[0].count, 8u);
}

TEST(Planner, RootOnlyForRootedCollectives) {
  SweepOptions o = small_sweep();
  o.collectives = {Collective::Broadcast, Collective::AllReduce};
  o.root = 2;
  const Plan plan = make_plan(o, {Setting{"default", "", {}, {}}}, PlanLimits{4, 4, 0});
  for (const auto& c : plan.cases) EXPECT_EQ(c.root, c.collective == Collective::Broadcast ? 2 : -1);
}

TEST(Planner, CapsSizesThatDoNotFitInMemoryWithAWarning) {
  SweepOptions o = small_sweep();
  o.collectives = {Collective::AllReduce};
  // 4 ranks per host, 4 KiB of memory: half is 2 KiB, 4 ranks x 2 buffers x size <= 2 KiB -> size <= 256
  const Plan plan = make_plan(o, {Setting{"default", "", {}, {}}}, PlanLimits{4, 4, 4096});
  for (const auto& c : plan.cases) EXPECT_LE(c.bytes, 256u);
  ASSERT_EQ(plan.warnings.size(), 1u);
  EXPECT_NE(plan.warnings[0].find("skipped"), std::string::npos);
}

TEST(Planner, CapsSizesBeyondTheBackendsElementCount) {
  SweepOptions o = small_sweep();
  o.collectives = {Collective::AllReduce};
  PlanLimits limits{4, 4, 0};
  limits.max_count = 32;  // floats: 128 B is the largest call
  const Plan plan = make_plan(o, {Setting{"default", "", {}, {}}}, limits);
  for (const auto& c : plan.cases) EXPECT_LE(c.bytes, 128u);
  ASSERT_EQ(plan.warnings.size(), 1u);
  EXPECT_NE(plan.warnings[0].find("from 512 B up"), std::string::npos) << plan.warnings[0];
}

TEST(Planner, RejectsRootOutsideTheRanks) {
  SweepOptions o = small_sweep();
  o.root = 4;
  EXPECT_THROW(make_plan(o, two_settings(), PlanLimits{4, 4, 0}), InputError);
}

TEST(Planner, RejectsEmptyCollectiveList) {
  SweepOptions o = small_sweep();
  o.collectives.clear();
  EXPECT_THROW(make_plan(o, two_settings(), PlanLimits{2, 2, 0}), InputError);
}

}  // namespace
}  // namespace commtune
