// The round-robin schedule and the findings from synthetic pairwise matrices: a slow node, a
// single slow pair, noise that hides a difference, links below the ceiling.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include <sstream>

#include "control/local_control_plane.hpp"
#include "doctor/alone_rounds.hpp"
#include "doctor/measured_findings.hpp"
#include "launch/doctor_parts.hpp"
#include "unit/golden.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {
namespace {

TEST(RoundRobin, EveryPairMeetsOnceInDisjointRounds) {
  for (int n : {2, 3, 4, 5, 8, 9}) {
    const auto rounds = round_robin_rounds(n);
    EXPECT_EQ(static_cast<int>(rounds.size()), n % 2 == 0 ? n - 1 : n) << n;
    std::set<std::pair<int, int>> met;
    for (const auto& round : rounds) {
      std::set<int> busy;
      for (const auto& [a, b] : round) {
        EXPECT_LT(a, b);
        EXPECT_TRUE(busy.insert(a).second && busy.insert(b).second) << "member twice in a round, n=" << n;
        EXPECT_TRUE(met.insert({a, b}).second) << "pair twice, n=" << n;
      }
    }
    EXPECT_EQ(static_cast<int>(met.size()), n * (n - 1) / 2) << n;
  }
  EXPECT_TRUE(round_robin_rounds(1).empty());
}

// n members, every link `fast` GB/s with +-`noise` relative jitter, except those `slow_of` says.
PairMatrix synthetic(int n, double fast, double noise, const std::function<double(int, int)>& rate_of,
                     unsigned seed = 1) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("n" + std::to_string(i + 1));
  PairMatrix m = empty_matrix(names, "node", 1 << 20);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j)
        for (int s = 0; s < 10; ++s) {
          m.entries[i][j].gbps.push_back(rate_of(i, j) * jitter(random));
          m.entries[i][j].latency_us.push_back(20 * jitter(random));
        }
  (void)fast;
  return m;
}

TEST(MeasuredFindings, ASlowNodeIsNamedAndNoOther) {
  const auto m = synthetic(4, 1.2, 0.1, [](int i, int j) { return i == 2 || j == 2 ? 0.012 : 1.2; });
  const auto slow = find_slow_nodes(m);
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].subject, "node n3");
  EXPECT_TRUE(find_bad_pairs(m).empty());  // a slow node is not three bad pairs
}

TEST(MeasuredFindings, AMemberNamedByItsKindIsNotPrefixedTwice) {
  auto m = synthetic(4, 1.2, 0.1, [](int i, int j) { return i == 1 || j == 1 ? 0.3 : 1.2; });
  m.names = {"rank 0", "rank 1", "rank 2", "rank 3"};  // one node's map: its ranks (GPUs)
  m.unit_of_member = "rank";
  const auto slow = find_slow_nodes(m);
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].subject, "rank 1");
}

TEST(MeasuredFindings, AHealthyNoisyMapHasNoFindings) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto m = synthetic(
        4, 1.2, 0.3, [](int, int) { return 1.2; }, seed);
    EXPECT_TRUE(find_slow_nodes(m).empty()) << seed;
    EXPECT_TRUE(find_bad_pairs(m).empty()) << seed;
  }
}

TEST(MeasuredFindings, ADifferenceWithinTheNoiseIsNotAFinding) {
  // Node 1 is 15% slower: below the 20% minimum margin.
  const auto m = synthetic(4, 1.0, 0.02, [](int i, int j) { return i == 0 || j == 0 ? 0.85 : 1.0; });
  EXPECT_TRUE(find_slow_nodes(m).empty());
  // 40% slower but the map's own noise is +-60%: still nothing.
  const auto noisy = synthetic(4, 1.0, 0.6, [](int i, int j) { return i == 0 || j == 0 ? 0.6 : 1.0; });
  EXPECT_GT(map_noise(noisy), 0.4);
  EXPECT_TRUE(find_slow_nodes(noisy).empty());
}

TEST(MeasuredFindings, ASingleSlowPairIsABadLink) {
  const auto m = synthetic(4, 1.0, 0.05,
                           [](int i, int j) { return (i == 0 && j == 3) || (i == 3 && j == 0) ? 0.3 : 1.0; });
  const auto pairs = find_bad_pairs(m);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].subject, "n1 <-> n4");
  EXPECT_TRUE(find_slow_nodes(m).empty());
}

// Only the entries of `rounds`' pairs (both directions) kept: a re-measure of those pairs alone.
PairMatrix only(PairMatrix m, const std::vector<Round>& rounds) {
  std::set<std::pair<int, int>> kept;
  for (const Round& r : rounds)
    for (const auto& [a, b] : r) kept.insert({a, b}), kept.insert({b, a});
  for (int i = 0; i < m.size(); ++i)
    for (int j = 0; j < m.size(); ++j)
      if (!kept.count({i, j})) m.entries[i][j] = PairEntry{};
  return m;
}

const auto kSlowPair14 = [](int i, int j) { return (i == 0 && j == 3) || (i == 3 && j == 0) ? 0.3 : 1.0; };

TEST(AloneRounds, EachSuspectPairAloneWithItsEndsAgainstTheFastestThirdMember) {
  // n2 (index 1) is slow to everyone: the reference for the pair n1 <-> n4 is n3, not n2.
  const PairMatrix m = synthetic(4, 1.0, 0.05, [](int i, int j) {
    return i == 1 || j == 1 ? 0.5 : (i == 0 && j == 3) || (i == 3 && j == 0) ? 0.3 : 1.0;
  });
  const std::vector<Round> rounds = alone_rounds(m, {{0, 3}});
  EXPECT_EQ(rounds, (std::vector<Round>{{{0, 3}}, {{0, 2}}, {{2, 3}}}));
  // Two suspects sharing a reference pair measure it once.
  const std::vector<Round> two = alone_rounds(synthetic(4, 1.0, 0.05, kSlowPair14), {{0, 3}, {0, 1}});
  std::set<Round> distinct(two.begin(), two.end());
  EXPECT_EQ(distinct.size(), two.size());
  for (const Round& r : two) EXPECT_EQ(r.size(), 1u);
  EXPECT_TRUE(alone_rounds(synthetic(2, 1.0, 0.05, kSlowPair14), {{0, 1}}).empty());
}

// A slow pair is measured again alone (its ends against a third member, one pair at a time) and
// named only when it is still slow; a pair that was slow only beside the pair measured with it in
// its map's round (a shared route or CPUs) is information.
TEST(MeasuredFindings, ASlowPairIsNamedOnlyWhenItIsSlowMeasuredAlone) {
  const PairMatrix first = synthetic(4, 1.0, 0.05, kSlowPair14);
  LocalControlPlane control;
  std::vector<std::optional<std::vector<Round>>> asked;
  const auto still_slow = [&](const std::optional<std::vector<Round>>& rounds) {
    asked.push_back(rounds);
    return std::optional<PairMatrix>(only(synthetic(4, 1.0, 0.05, kSlowPair14, 2), rounds.value()));
  };
  const auto again = confirmed_slow_nodes(control, first, still_slow);
  ASSERT_EQ(asked.size(), 1u);  // no whole map: no slow node
  ASSERT_TRUE(asked[0].has_value());
  EXPECT_EQ(*asked[0], alone_rounds(first, {{0, 3}}));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].id, "slow-pair");
  EXPECT_EQ(again[0].severity, Severity::Warning);
  const auto fine_alone = [&](const std::optional<std::vector<Round>>& rounds) {
    return std::optional<PairMatrix>(only(synthetic(
                                              4, 1.0, 0.05, [](int, int) { return 1.0; }, 3),
                                          rounds.value()));
  };
  const auto once = confirmed_slow_nodes(control, first, fine_alone);
  ASSERT_EQ(once.size(), 1u);
  EXPECT_EQ(once[0].id, "slow-pair-transient");
  EXPECT_EQ(once[0].severity, Severity::Info);
  EXPECT_EQ(once[0].subject, "n1 <-> n4");
  const auto failed =
      confirmed_slow_nodes(control, first, [](const auto&) { return std::optional<PairMatrix>(); });
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].id, "slow-pair-transient");
}

// A slow node is measured again in a whole second map, and named only when that map finds it too.
TEST(MeasuredFindings, ASlowNodeIsNamedOnlyWhenASecondWholeMapSeesItAgain) {
  const auto slow_node = [](int i, int j) { return i == 2 || j == 2 ? 0.1 : 1.0; };
  const PairMatrix first = synthetic(4, 1.0, 0.05, slow_node);
  LocalControlPlane control;
  std::vector<std::optional<std::vector<Round>>> asked;
  const auto again =
      confirmed_slow_nodes(control, first, [&](const std::optional<std::vector<Round>>& rounds) {
        asked.push_back(rounds);
        return std::optional<PairMatrix>(synthetic(4, 1.0, 0.05, slow_node, 2));
      });
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_FALSE(asked[0].has_value());
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].id, "slow-node");
  EXPECT_EQ(again[0].severity, Severity::Critical);
  const auto once = confirmed_slow_nodes(control, first, [](const auto&) {
    return std::optional<PairMatrix>(synthetic(
        4, 1.0, 0.05, [](int, int) { return 1.0; }, 3));
  });
  ASSERT_EQ(once.size(), 1u);
  EXPECT_EQ(once[0].id, "slow-node-transient");
  EXPECT_TRUE(confirmed_slow_nodes(control, synthetic(4, 1.0, 0.05, [](int, int) { return 1.0; }),
                                   [&](const auto&) -> std::optional<PairMatrix> {
                                     ADD_FAILURE() << "a healthy map is not measured again";
                                     return std::nullopt;
                                   })
                  .empty());
}

// Several maps at once (the GPUs inside each node): each group's suspects are re-measured in the
// same phase, the groups with none sit it out, and each group's findings are its own.
TEST(MeasuredFindings, EachGroupsSuspectsAreMeasuredAgainTogetherAndTheOthersSitOut) {
  const auto slow_node = [](int i, int j) { return i == 2 || j == 2 ? 0.1 : 1.0; };
  const auto healthy = [](int, int) { return 1.0; };
  const std::vector<PairMatrix> maps{synthetic(4, 1.0, 0.05, healthy), synthetic(4, 1.0, 0.05, kSlowPair14),
                                     synthetic(4, 1.0, 0.05, slow_node)};
  LocalControlPlane control;
  std::vector<GroupRounds> asked;
  const auto found = confirmed_slow_links(control, maps, [&](const GroupRounds& rounds) {
    asked.push_back(rounds);
    std::vector<std::optional<PairMatrix>> out;
    for (std::size_t g = 0; g < rounds.size(); ++g) {
      const PairMatrix again = synthetic(4, 1.0, 0.05,
                                         g == 1   ? kSlowPair14
                                         : g == 2 ? slow_node
                                                  : healthy,
                                         7);
      out.push_back(rounds[g] ? only(again, *rounds[g]) : again);
    }
    return out;
  });
  ASSERT_EQ(asked.size(), 2u);  // a whole map for group 2's slow member, then group 1's pair alone
  EXPECT_EQ(asked[0], (GroupRounds{std::vector<Round>{}, std::vector<Round>{}, std::nullopt}));
  EXPECT_EQ(asked[1],
            (GroupRounds{std::vector<Round>{}, alone_rounds(maps[1], {{0, 3}}), std::vector<Round>{}}));
  ASSERT_EQ(found.size(), 3u);
  EXPECT_TRUE(found[0].empty());
  ASSERT_EQ(found[1].size(), 1u);
  EXPECT_EQ(found[1][0].id, "slow-pair");
  EXPECT_EQ(found[1][0].subject, "n1 <-> n4");
  ASSERT_EQ(found[2].size(), 1u);
  EXPECT_EQ(found[2][0].id, "slow-node");
  EXPECT_EQ(found[2][0].subject, "node n3");
  const Finding gpu = in_node(found[2][0], "h7");
  EXPECT_EQ(gpu.id, "slow-gpu");
  EXPECT_EQ(gpu.subject, "node n3 (GPUs of node h7)");
  EXPECT_EQ(in_node(Finding{"slow-node-transient", Severity::Info, "n3", "", ""}, "h7").id,
            "slow-gpu-transient");
  const auto none = confirmed_slow_links(control, {maps[0], maps[0]}, [&](const GroupRounds&) {
    ADD_FAILURE() << "healthy maps are not measured again";
    return std::vector<std::optional<PairMatrix>>{};
  });
  ASSERT_EQ(none.size(), 2u);
  EXPECT_TRUE(none[0].empty() && none[1].empty());
}

// Ranks sharing cores exchange as fast as the scheduler runs them both: on an oversubscribed node a
// confirmed slow link is information (what the re-measure found transient stays as it was).
TEST(MeasuredFindings, OnAnOversubscribedNodeASlowLinkIsInformation) {
  DoctorMeasurement m{
      .confirmed = {Finding{"slow-pair", Severity::Warning, "rank 1 <-> rank 2", "0.07 GB/s", "-"},
                    Finding{"slow-node-transient", Severity::Info, "rank 3", "0.5 GB/s", "-"}},
      .oversubscribed = true};
  const auto subject_of = [](const std::vector<Finding>& all, const std::string& subject) {
    return *std::find_if(all.begin(), all.end(), [&](const Finding& f) { return f.subject == subject; });
  };
  const std::vector<Finding> shared = measured_findings(m);
  EXPECT_EQ(subject_of(shared, "rank 1 <-> rank 2").id, "slow-pair-oversubscribed");
  EXPECT_EQ(subject_of(shared, "rank 1 <-> rank 2").severity, Severity::Info);
  EXPECT_EQ(subject_of(shared, "rank 3").id, "slow-node-transient");
  m.oversubscribed = false;
  const std::vector<Finding> own = measured_findings(m);
  EXPECT_EQ(subject_of(own, "rank 1 <-> rank 2").id, "slow-pair");
  EXPECT_EQ(subject_of(own, "rank 1 <-> rank 2").severity, Severity::Warning);
}

TEST(MeasuredFindings, TwoMembersCannotNameASlowNode) {
  const auto m = synthetic(2, 1.0, 0.05, [](int, int) { return 0.01; });
  EXPECT_TRUE(find_slow_nodes(m).empty());
  EXPECT_TRUE(find_bad_pairs(m).empty());
}

TEST(MeasuredFindings, LinksFarBelowTheCeiling) {
  const auto m = synthetic(3, 1.0, 0.05, [](int, int) { return 10.0; });
  const Ceiling nic{50, "1 x 400 Gb/s NIC per node", "sysfs", 0.96, 0.98, "nccl-tests #267"};
  const auto below = find_links_below_ceiling(m, nic);
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0].severity, Severity::Warning);
  EXPECT_TRUE(find_links_below_ceiling(m, Ceiling{15, "p", "b", 0, 0, ""}).empty());
  EXPECT_TRUE(find_links_below_ceiling(m, std::nullopt).empty());
}

// The matrix as both backends' doctors print it and write it (--json): fixed samples, so the
// medians and spreads are exact.
TEST(PairMatrixOutput, TerminalAndJsonMatchTheGoldenFile) {
  PairMatrix m = empty_matrix({"rank 0", "rank 1", "rank 2"}, "rank", 256u << 10);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j) m.entries[i][j] = PairEntry{{10.0 + i, 12.0 + j, 11.0 + i + j}, {3.0 + i, 3.5, 4.0 + j}};
  std::ostringstream text;
  write_matrix(m, text);
  testing::expect_golden("pairwise.txt", text.str() + to_json(pair_map_of(m)).dump(1) + "\n");
}

}  // namespace
}  // namespace commtune
