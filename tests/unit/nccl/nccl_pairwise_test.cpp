// The NCCL pairwise map's supervisor side with real worker processes: the test build's simulated
// workers (no GPU) measure modelled rounds; a slow link is injected through the simulated
// machine's COMMTUNE_SIMULATED_SLOW_LINK, hangs and crashes through COMMTUNE_TEST_FAULT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "backend/nccl/supervisor/nccl_pairwise.hpp"
#include "control/local_control_plane.hpp"
#include "doctor/measured_findings.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {
namespace {

WorkerCommand simulated_workers(const std::vector<std::string>& extra = {}) {
  WorkerCommand command{COMMTUNE_SIMULATED_BINARY, extra};
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS"})
    if (const char* value = std::getenv(name))
      command.base_environment.push_back(std::string(name) + "=" + value);
  return command;
}

NcclPairwisePlan plan_of(int members) {
  NcclPairwisePlan plan;
  plan.groups.resize(1);
  for (int m = 0; m < members; ++m) {
    plan.groups[0].push_back("rank " + std::to_string(m));
    plan.my_members.push_back(m);
    plan.my_devices.push_back(m % 2);
  }
  plan.shape = PairwiseRequest{-1, 64u << 10, 5, 2, 4};
  return plan;
}

NcclRunOptions short_deadlines() {
  NcclRunOptions run;
  run.init_timeout_s = 5;
  run.case_timeout_s = 1;
  return run;
}

TEST(NcclPairwiseRounds, EachWorkerIsToldItsPeerOrNone) {
  const std::vector<Round> rounds = round_robin_rounds(3);  // odd: one member sits each round out
  const std::vector<std::string> lines =
      round_requests(rounds[0], {0, 1, 2}, PairwiseRequest{-1, 1024, 2, 1, 1});
  ASSERT_EQ(lines.size(), 3u);
  std::vector<int> peers;
  for (const auto& line : lines) {
    const nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_EQ(j["op"], "pairwise");
    EXPECT_EQ(j["bytes"], 1024);
    peers.push_back(j["peer"].get<int>());
  }
  int sitting_out = 0;
  for (int m = 0; m < 3; ++m) {
    const int p = peers[static_cast<std::size_t>(m)];
    if (p < 0)
      ++sitting_out;
    else
      EXPECT_EQ(peers[static_cast<std::size_t>(p)], m);  // pairs are mutual
  }
  EXPECT_EQ(sitting_out, 1);
}

TEST(NcclPairwiseMap, EveryPairIsMeasuredInBothDirections) {
  LocalControlPlane control;
  const NcclPairwiseMap map =
      measure_nccl_pairwise(control, simulated_workers(), short_deadlines(), plan_of(4));
  ASSERT_FALSE(map.failure) << *map.failure;
  ASSERT_EQ(map.matrices.size(), 1u);
  ASSERT_EQ(map.matrices[0].size(), 4);
  EXPECT_EQ(map.matrices[0].unit_of_member, "rank");
  EXPECT_EQ(map.matrices[0].message_bytes, 64u << 10);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const PairEntry& e = map.matrices[0].entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      EXPECT_EQ(e.gbps.size(), i == j ? 0u : 5u) << i << "->" << j;
      EXPECT_EQ(e.latency_us.size(), i == j ? 0u : 5u) << i << "->" << j;
    }
  EXPECT_TRUE(find_bad_pairs(map.matrices[0]).empty());
  EXPECT_TRUE(find_slow_nodes(map.matrices[0]).empty());
}

TEST(NcclPairwiseMap, ASlowLinkIsTheSlowPair) {
  LocalControlPlane control;
  const NcclPairwiseMap map = measure_nccl_pairwise(
      control, simulated_workers({"COMMTUNE_SIMULATED_SLOW_LINK=1-3"}), short_deadlines(), plan_of(4));
  ASSERT_EQ(map.matrices.size(), 1u);
  EXPECT_LT(map.matrices[0].entries[1][3].median_gbps(), 0.5 * map.matrices[0].entries[0][1].median_gbps());
  const std::vector<Finding> pairs = find_bad_pairs(map.matrices[0]);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].subject, "rank 1 <-> rank 3");
  EXPECT_TRUE(find_slow_nodes(map.matrices[0]).empty());
}

// The doctor's re-measure: the plan's own rounds, one pair each, measure those pairs only; on a
// slow link they still find it slow, against its ends' links to a third member.
TEST(NcclPairwiseMap, ThePlansRoundsMeasureThosePairsOnly) {
  LocalControlPlane control;
  NcclPairwisePlan plan = plan_of(4);
  plan.rounds = {std::vector<Round>{{{1, 3}}, {{0, 1}}, {{0, 3}}}};
  const NcclPairwiseMap map = measure_nccl_pairwise(
      control, simulated_workers({"COMMTUNE_SIMULATED_SLOW_LINK=1-3"}), short_deadlines(), plan);
  ASSERT_FALSE(map.failure) << *map.failure;
  ASSERT_EQ(map.matrices.size(), 1u);
  const PairMatrix& m = map.matrices[0];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const std::pair<int, int> pair{std::min(i, j), std::max(i, j)};
      const bool planned = pair == std::pair{1, 3} || pair == std::pair{0, 1} || pair == std::pair{0, 3};
      EXPECT_EQ(m.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].gbps.size(),
                planned ? 5u : 0u)
          << i << "->" << j;
    }
  const std::vector<std::pair<int, int>> bad = bad_pair_members(m);
  EXPECT_EQ(bad, (std::vector<std::pair<int, int>>{{1, 3}}));
}

// A group given no rounds sits the re-measure out: its workers start and measure nothing (the
// doctor re-measures only the nodes with a suspect, every node's group in one plan).
TEST(NcclPairwiseMap, AGroupGivenNoRoundsMeasuresNothing) {
  LocalControlPlane control;
  NcclPairwisePlan plan = plan_of(4);
  plan.rounds = {std::vector<Round>{}};
  const NcclPairwiseMap map = measure_nccl_pairwise(control, simulated_workers(), short_deadlines(), plan);
  ASSERT_FALSE(map.failure) << *map.failure;
  ASSERT_EQ(map.matrices.size(), 1u);
  for (const auto& row : map.matrices[0].entries)
    for (const PairEntry& e : row) EXPECT_TRUE(e.gbps.empty() && e.latency_us.empty());
}

TEST(NcclPairwiseMap, AHungWorkerEndsTheMapWithItsReason) {
  LocalControlPlane control;
  const auto start = Clock::now();
  const NcclPairwiseMap map = measure_nccl_pairwise(
      control, simulated_workers({"COMMTUNE_TEST_FAULT=hang-case:2"}), short_deadlines(), plan_of(4));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(map.matrices.empty());
  ASSERT_TRUE(map.failure);
  EXPECT_NE(map.failure->find("rank 2 worker did not finish pairwise map round 1 of 3 within 1 s"),
            std::string::npos)
      << *map.failure;
}

TEST(NcclPairwiseMap, ACrashedWorkerEndsTheMapWithItsSignal) {
  LocalControlPlane control;
  const NcclPairwiseMap map = measure_nccl_pairwise(
      control, simulated_workers({"COMMTUNE_TEST_FAULT=crash-case:1"}), short_deadlines(), plan_of(3));
  EXPECT_TRUE(map.matrices.empty());
  ASSERT_TRUE(map.failure);
  EXPECT_NE(map.failure->find("rank 1 worker ended without answering during pairwise map round"),
            std::string::npos)
      << *map.failure;
  EXPECT_NE(map.failure->find("killed by signal 11"), std::string::npos) << *map.failure;
}

TEST(NcclPairwiseMap, AWorkersErrorIsRecordedNotHidden) {
  LocalControlPlane control;
  const NcclPairwiseMap map = measure_nccl_pairwise(
      control, simulated_workers({"COMMTUNE_TEST_FAULT=error-case:0"}), short_deadlines(), plan_of(2));
  EXPECT_TRUE(map.matrices.empty());
  ASSERT_TRUE(map.failure);
  EXPECT_NE(map.failure->find("rank 0: pairwise map round 1 of 1: simulated NCCL failure"), std::string::npos)
      << *map.failure;
}

// Several groups (the GPUs of each node): the maps run side by side, each on its own schedule;
// a group of one member has no pair and no communicator. Here the one supervisor holds group 1
// (3 members, named by their job ranks); group 0 is a node with one rank.
TEST(NcclPairwiseMap, EachGroupIsAMapOfItsOwnAndAGroupOfOneHasNone) {
  LocalControlPlane control;
  NcclPairwisePlan plan = plan_of(3);
  plan.groups = {{"rank 0"}, {"rank 1", "rank 2", "rank 3"}};
  plan.my_group = 1;
  plan.my_ranks = {1, 2, 3};
  const NcclPairwiseMap map = measure_nccl_pairwise(control, simulated_workers(), short_deadlines(), plan);
  ASSERT_FALSE(map.failure) << *map.failure;
  ASSERT_EQ(map.matrices.size(), 2u);
  EXPECT_EQ(map.matrices[0].size(), 1);
  ASSERT_EQ(map.matrices[1].size(), 3);
  EXPECT_EQ(map.matrices[1].names[2], "rank 3");
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      EXPECT_EQ(map.matrices[1].entries[i][j].gbps.size(), i == j ? 0u : 5u) << i << "->" << j;
}

// A group of 2 or more whose member 0 nobody holds cannot make its communicator: the map ends
// with that reason on every supervisor, before any round (nothing waits for the missing id).
TEST(NcclPairwiseMap, AGroupWithoutItsMemberZeroEndsTheMapWithTheReason) {
  LocalControlPlane control;
  NcclPairwisePlan plan = plan_of(2);
  plan.groups = {{"rank 0", "rank 1"}, {"rank 2", "rank 3"}};
  const NcclPairwiseMap map = measure_nccl_pairwise(control, simulated_workers(), short_deadlines(), plan);
  EXPECT_TRUE(map.matrices.empty());
  ASSERT_TRUE(map.failure);
  EXPECT_NE(map.failure->find("member 0's worker of map 1 returned no unique id"), std::string::npos)
      << *map.failure;
}

// A worker's failure names its job rank (my_ranks), not its index inside its node.
TEST(NcclPairwiseMap, AFailureNamesTheWorkersJobRank) {
  LocalControlPlane control;
  NcclPairwisePlan plan = plan_of(2);
  plan.my_ranks = {6, 7};
  const NcclPairwiseMap map = measure_nccl_pairwise(
      control, simulated_workers({"COMMTUNE_TEST_FAULT=error-case:1"}), short_deadlines(), plan);
  ASSERT_TRUE(map.failure);
  EXPECT_NE(map.failure->find("rank 7: pairwise map round 1 of 1"), std::string::npos) << *map.failure;
}

}  // namespace
}  // namespace commtune
