// The order of a racing round's cases (plan/race_order): side by side, size by size, when the
// backend keeps every setting open; otherwise setting by setting; alternating by round.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "plan/race_order.hpp"

namespace commtune {
namespace {

// Two collectives x two sizes x three settings x two placements, in the planner's order.
std::vector<Case> planned() {
  SweepOptions o;
  o.sizes = SizeRange{1024, 2048, 2.0, 0};
  o.collectives = {Collective::AllReduce, Collective::AllGather};
  std::vector<Setting> settings;
  for (const char* name : {"default", "b", "c"}) settings.push_back(Setting{name, "", {}, {}});
  return make_plan(o, settings, PlanLimits{4, 4, 0}).cases;
}

// Each case as "setting/collective/bytes/placement".
std::vector<std::string> labels(const std::vector<Case>& cases) {
  std::vector<std::string> out;
  for (const Case& c : cases)
    out.push_back(std::to_string(c.setting_index) + "/" + std::string(name_of(c.collective)) + "/" +
                  std::to_string(c.bytes) + "/" + std::string(name_of(c.placement)));
  return out;
}

TEST(RaceOrder, SideBySideOnlyWhenEverySettingIsKeptOpenAndThereAreSeveral) {
  const std::vector<Case> cases = planned();
  EXPECT_TRUE(side_by_side_fits(cases, 3));
  EXPECT_TRUE(side_by_side_fits(cases, 64));
  EXPECT_FALSE(side_by_side_fits(cases, 2));
  EXPECT_FALSE(side_by_side_fits(cases, 0));
  std::vector<Case> one;
  for (const Case& c : cases)
    if (c.setting_index == 1) one.push_back(c);
  EXPECT_FALSE(side_by_side_fits(one, 64));  // nothing to compare side by side
}

TEST(RaceOrder, SideBySideMeasuresEachSizesSettingsOneAfterAnother) {
  const std::vector<Case> plan = planned();
  ASSERT_EQ(plan.size(), 24u);
  std::vector<Case> even = plan;
  order_round(even, 0, true);
  const std::vector<std::string> first_size{"0/allreduce/1024/out-of-place", "0/allreduce/1024/in-place",
                                            "1/allreduce/1024/out-of-place", "1/allreduce/1024/in-place",
                                            "2/allreduce/1024/out-of-place", "2/allreduce/1024/in-place"};
  const std::vector<std::string> got = labels(even);
  EXPECT_EQ(std::vector<std::string>(got.begin(), got.begin() + 6), first_size);
  EXPECT_EQ(got[6], "0/allreduce/2048/out-of-place");
  EXPECT_EQ(got[12], "0/allgather/1024/out-of-place");  // the sizes in the plan's order
  std::vector<Case> odd = plan;
  order_round(odd, 1, true);
  const std::vector<std::string> back = labels(odd);
  EXPECT_EQ(back[0], "2/allreduce/1024/out-of-place");  // the settings the other way round
  EXPECT_EQ(back[1], "2/allreduce/1024/in-place");
  EXPECT_EQ(back[4], "0/allreduce/1024/out-of-place");
  EXPECT_EQ(back[6], "2/allreduce/2048/out-of-place");
  // The same cases, each once.
  std::vector<std::string> a = labels(plan), b = back;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

TEST(RaceOrder, SettingBySettingKeepsThePlanInEvenRoundsAndReversesTheSettingsInOddOnes) {
  const std::vector<Case> plan = planned();
  std::vector<Case> even = plan;
  order_round(even, 2, false);
  EXPECT_EQ(labels(even), labels(plan));
  std::vector<Case> odd = plan;
  order_round(odd, 3, false);
  const std::vector<std::string> got = labels(odd), given = labels(plan);
  // Setting 2's eight cases first, in their own order, then 1's, then 0's.
  EXPECT_EQ(std::vector<std::string>(got.begin(), got.begin() + 8),
            std::vector<std::string>(given.begin() + 16, given.end()));
  EXPECT_EQ(std::vector<std::string>(got.begin() + 16, got.end()),
            std::vector<std::string>(given.begin(), given.begin() + 8));
}

}  // namespace
}  // namespace commtune
