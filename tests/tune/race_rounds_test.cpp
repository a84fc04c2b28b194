// The race's side-by-side rounds as the re-measure's first rounds (sweep/race_rounds): which
// rounds count at a finalist size, and how many.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sweep/race_rounds.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;
using testing::synthetic_document;

const SizeKey kSmall{Collective::AllReduce, 1024};
const SizeKey kLarge{Collective::AllReduce, 2048};

// `rounds`: setting -> its race round medians at 1 KiB (both placements alike); 2 KiB has the same
// with every setting one round short.
ResultsDocument raced(const std::map<std::string, std::vector<double>>& rounds) {
  std::vector<CaseResult> cases;
  std::vector<Setting> settings;
  for (const auto& [name, medians] : rounds) {
    settings.push_back(Setting{name, "", {}, {}});
    for (const SizeKey& key : {kSmall, kLarge})
      for (Placement p : {Placement::OutOfPlace, Placement::InPlace}) {
        CaseResult c = synthetic_case(name, key.collective, key.bytes, p, {10, 11, 12});
        c.race_round_medians_us = medians;
        if (key.bytes == kLarge.bytes && !c.race_round_medians_us.empty()) c.race_round_medians_us.pop_back();
        cases.push_back(c);
      }
  }
  return synthetic_document("mpi", settings, std::move(cases));
}

std::vector<double> medians_of(const RaceRounds& r, const std::string& setting, const SizeKey& key,
                               Placement p) {
  std::vector<double> out;
  for (const CaseResult& c : r.cases)
    if (c.setting == setting && c.spec.bytes == key.bytes && c.spec.placement == p)
      out.push_back(c.time_us.median);
  return out;
}

TEST(RaceRounds, TheRoundsTheDefaultAndEveryFinalistRanCountInRoundOrder) {
  const ResultsDocument doc = raced({{"default", {10, 11}}, {"a", {8, 9, 7}}, {"b", {5, 6, 4}}});
  const RaceRounds r = race_rounds(doc, {{kSmall, {"a", "b"}}, {kLarge, {"a"}}}, 5);
  // 1 KiB: the default ran 2 rounds (dropped after them), the finalists 3: the first 2 count.
  EXPECT_EQ(r.counted.at(kSmall), 2u);
  EXPECT_EQ(medians_of(r, "default", kSmall, Placement::InPlace), (std::vector<double>{10, 11}));
  EXPECT_EQ(medians_of(r, "a", kSmall, Placement::OutOfPlace), (std::vector<double>{8, 9}));
  EXPECT_EQ(medians_of(r, "b", kSmall, Placement::InPlace), (std::vector<double>{5, 6}));
  EXPECT_EQ(r.counted.at(kLarge), 1u);
  EXPECT_TRUE(medians_of(r, "b", kLarge, Placement::InPlace).empty());  // not a finalist there
  for (const CaseResult& c : r.cases) {
    EXPECT_EQ(c.status, CaseStatus::Ok);
    EXPECT_EQ(c.wrong, -1);  // a round of the re-measure's: not checked
  }
}

TEST(RaceRounds, AtLeastTheFreshRoundsAreLeftToTheReMeasure) {
  const ResultsDocument doc = raced({{"default", {10, 11, 12, 13}}, {"a", {8, 9, 7, 6}}});
  EXPECT_EQ(race_rounds(doc, {{kSmall, {"a"}}}, 5).counted.at(kSmall), 5 - kFreshRemeasureRounds);
  EXPECT_EQ(race_rounds(doc, {{kSmall, {"a"}}}, 4).counted.at(kSmall), 4 - kFreshRemeasureRounds);
  EXPECT_TRUE(race_rounds(doc, {{kSmall, {"a"}}}, kFreshRemeasureRounds).cases.empty());
}

TEST(RaceRounds, NothingCountsWhereACaseRanNoRoundSideBySideOrDidNotMeasure) {
  // An exhaustive sweep, or a round 0 run setting by setting: no race rounds at all.
  EXPECT_TRUE(race_rounds(raced({{"default", {}}, {"a", {8, 9}}}), {{kSmall, {"a"}}}, 5).counted.empty());
  ResultsDocument failed = raced({{"default", {10, 11}}, {"a", {8, 9}}});
  for (CaseResult& c : failed.cases)
    if (c.setting == "a" && c.spec.bytes == kSmall.bytes && c.spec.placement == Placement::InPlace)
      c.status = CaseStatus::Failed;
  const RaceRounds r = race_rounds(failed, {{kSmall, {"a"}}, {kLarge, {"a"}}}, 5);
  EXPECT_FALSE(r.counted.count(kSmall));
  EXPECT_EQ(r.counted.at(kLarge), 1u);
  // A finalist measured in one placement only: its size has nothing to pair.
  ResultsDocument one = raced({{"default", {10, 11}}, {"a", {8, 9}}});
  std::erase_if(one.cases, [](const CaseResult& c) {
    return c.setting == "a" && c.spec.placement == Placement::InPlace;
  });
  EXPECT_TRUE(race_rounds(one, {{kSmall, {"a"}}}, 5).counted.empty());
}

TEST(RaceRounds, APooledCaseKeepsTheMediansOfItsSideBySideRoundsAndAFailedRoundDecides) {
  std::vector<CaseResult> rounds;
  for (double us : {10.0, 20.0, 30.0})
    rounds.push_back(synthetic_case("a", Collective::AllReduce, 1024, Placement::InPlace, {us, us, us}));
  const CaseResult pooled = pool_race_rounds(rounds, 2);
  EXPECT_EQ(pooled.time_us.count, 9u);
  EXPECT_EQ(pooled.race_round_medians_us, (std::vector<double>{10, 20}));
  EXPECT_TRUE(pooled.run_medians_us.empty());  // rounds are not runs
  EXPECT_EQ(pool_race_rounds(rounds, 5).race_round_medians_us.size(), 3u);
  rounds[1].status = CaseStatus::Failed;
  rounds[1].reason = "lost";
  const CaseResult failed = pool_race_rounds(rounds, 3);
  EXPECT_EQ(failed.status, CaseStatus::Failed);
  EXPECT_EQ(failed.reason, "racing round 2: lost");
  EXPECT_TRUE(failed.race_round_medians_us.empty());
}

// Round 0's leader for a case: the other settings' cases at its collective, size and placement
// measured ok in this round alone, the least median interval high end, in seconds; none for a
// grouped case or where none ran yet.
TEST(RaceRounds, RoundZerosLeaderIsTheFastestOtherSettingAtTheSizeAndPlacementSoFar) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 2048, 2.0, 0};
  o.collectives = {Collective::AllReduce};
  const Plan plan = make_plan(o,
                              {Setting{"default", "", {}, {}}, Setting{"a", "", {{"k", "a"}}, {}},
                               Setting{"b", "", {{"k", "b"}}, {}}},
                              PlanLimits{4, 4, 0});
  auto index_of = [&](std::size_t setting, std::uint64_t bytes, Placement p) {
    for (const Case& c : plan.cases)
      if (c.setting_index == setting && c.bytes == bytes && c.placement == p) return c.index;
    throw std::logic_error("no such case");
  };
  auto at = [&](std::size_t setting, std::uint64_t bytes, Placement p) {
    return plan.cases[index_of(setting, bytes, p)];
  };
  std::map<std::size_t, std::vector<CaseResult>> rounds;
  const Case first = at(0, 1024, Placement::OutOfPlace);
  EXPECT_FALSE(round_leader_s(first, plan, rounds));  // nothing measured yet
  auto ran = [&](std::size_t setting, std::uint64_t bytes, Placement p, std::vector<double> us) {
    rounds[index_of(setting, bytes, p)].push_back(
        synthetic_case(plan.settings[setting].name, Collective::AllReduce, bytes, p, std::move(us)));
  };
  ran(1, 1024, Placement::OutOfPlace, {20, 21, 22, 23, 24});
  ran(2, 1024, Placement::OutOfPlace, {10, 11, 12, 13, 14});
  ran(2, 1024, Placement::InPlace, {1, 1, 1, 1, 1});     // another placement
  ran(1, 2048, Placement::OutOfPlace, {1, 1, 1, 1, 1});  // another size
  ran(0, 1024, Placement::OutOfPlace, {1, 1, 1, 1, 1});  // the case's own setting
  const auto leader = round_leader_s(first, plan, rounds);
  ASSERT_TRUE(leader);
  EXPECT_NEAR(leader->median, 12e-6, 1e-12);
  EXPECT_NEAR(leader->median_ci_high,
              rounds[index_of(2, 1024, Placement::OutOfPlace)][0].time_us.median_ci_high * 1e-6, 1e-12);
  ran(2, 1024, Placement::OutOfPlace, {10, 11, 12, 13, 14});  // a second round: not round 0's
  EXPECT_NEAR(round_leader_s(first, plan, rounds)->median, 22e-6, 1e-12);
  rounds[index_of(1, 1024, Placement::OutOfPlace)][0].status = CaseStatus::Failed;
  EXPECT_FALSE(round_leader_s(first, plan, rounds));
  Case grouped = first;
  grouped.group = GroupSpec{.kind = GroupKind::IntraNode};
  rounds[index_of(1, 1024, Placement::OutOfPlace)][0].status = CaseStatus::Ok;
  EXPECT_FALSE(round_leader_s(grouped, plan, rounds));
  const StoppingRule rule = with_round_leader(StoppingRule{}, first, plan, rounds);
  EXPECT_TRUE(rule.leader);
  EXPECT_DOUBLE_EQ(rule.decision.margin, plan.options.decision.margin);
}

// A later round samples each case in round 0's block: a paced group or a block of short calls, 1
// where each call was timed alone; a batch-mean case or a failed one leaves the round's rule as is.
TEST(RaceRounds, ALaterRoundKeepsRoundZerosBlockAndRoundZeroItsLeader) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 1024, 2.0, 0};
  o.collectives = {Collective::AllReduce};
  const Plan plan =
      make_plan(o, {Setting{"default", "", {}, {}}, Setting{"a", "", {{"k", "a"}}, {}}}, PlanLimits{4, 4, 0});
  ASSERT_EQ(plan.cases.size(), 4u);
  const Case& c = plan.cases[0];
  const Case& other = plan.cases[2];  // the other setting, same size and placement
  ASSERT_EQ(other.placement, c.placement);
  std::map<std::size_t, std::vector<CaseResult>> rounds;
  CaseResult first = synthetic_case("default", Collective::AllReduce, 1024, c.placement, {10, 11, 12});
  first.sample_unit = SampleUnit::Block;
  first.sample_block = 37;
  rounds[c.index].push_back(first);
  rounds[other.index].push_back(synthetic_case("a", Collective::AllReduce, 1024, c.placement, {5, 5, 5}));
  StoppingRule round;
  round.min_samples = 3;
  EXPECT_EQ(race_case_rule(round, 1, c, plan, rounds).carried_block, 37u);
  EXPECT_EQ(race_case_rule(round, 2, c, plan, rounds).min_samples, 3u);  // the round's own rule otherwise
  EXPECT_FALSE(race_case_rule(round, 1, c, plan, rounds).leader);
  const StoppingRule zero = race_case_rule(round, 0, c, plan, rounds);
  EXPECT_TRUE(zero.leader);  // round 0: the other setting's case leads
  EXPECT_EQ(zero.carried_block, 0u);
  rounds[c.index][0].sample_unit = SampleUnit::Iteration;
  EXPECT_EQ(race_case_rule(round, 1, c, plan, rounds).carried_block, 1u);
  rounds[c.index][0].sample_unit = SampleUnit::BatchMean;
  EXPECT_EQ(race_case_rule(round, 1, c, plan, rounds).carried_block, 0u);
  rounds[c.index][0].sample_unit = SampleUnit::Block;
  rounds[c.index][0].status = CaseStatus::Failed;
  EXPECT_EQ(race_case_rule(round, 1, c, plan, rounds).carried_block, 0u);
  EXPECT_EQ(race_case_rule(round, 1, plan.cases[1], plan, rounds).carried_block, 0u);  // never measured
}

}  // namespace
}  // namespace commtune
