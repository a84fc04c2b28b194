// Communicator groups: the specs as nccl-tests reads NCCL_TESTS_SPLIT, the named shapes, the
// planner's checks, the environment's habit, and a grouped case's figures and JSON.
#include <gtest/gtest.h>

#include <strings.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli/sweep_command.hpp"
#include "core/errors.hpp"
#include "plan/case_json.hpp"
#include "plan/groups.hpp"
#include "plan/plan.hpp"
#include "results/case_result.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

// nccl-tests' reading of NCCL_TESTS_SPLIT, written here from its description (src/common.cu): the
// first matching operator prefix, in any case, then whitespace, then "0b" binary or whatever
// strtoul(s, 0) reads; the color is rank OP value.
int reference_color(const std::string& text, int rank) {
  const struct {
    const char* prefix;
    char op;
  } ops[] = {{"AND", '&'}, {"&", '&'}, {"OR", '|'},  {"|", '|'},
             {"MOD", '%'}, {"%", '%'}, {"DIV", '/'}, {"/", '/'}};
  for (const auto& o : ops) {
    const std::size_t n = std::string(o.prefix).size();
    if (strncasecmp(text.c_str(), o.prefix, n) != 0) continue;
    const char* s = text.c_str() + n;
    while (*s == ' ') ++s;
    const int v = strncasecmp(s, "0b", 2) == 0 ? static_cast<int>(std::strtoul(s + 2, nullptr, 2))
                                               : static_cast<int>(std::strtoul(s, nullptr, 0));
    switch (o.op) {
      case '&':
        return rank & v;
      case '|':
        return rank | v;
      case '%':
        return rank % v;
      default:
        return rank / v;
    }
  }
  return 0;
}

std::vector<int> one_node(int nranks) { return std::vector<int>(static_cast<std::size_t>(nranks), 0); }

TEST(GroupSpecs, ColorsEqualNcclTestsForEveryOperatorSpellingAndBaseOver1To64Ranks) {
  const std::vector<std::string> spellings{
      "AND 1", "and 6",  "&3",        "& 0x5", "OR 1",  "or 0b10", "|4",    "| 010",   "MOD 8", "mod 3",
      "%2",    "% 0x10", "MOD 0b101", "DIV 8", "div 2", "/4",      "/ 0x3", "DIV 017", "mOd 7", "DiV 1"};
  for (const std::string& text : spellings) {
    const GroupSpec spec = parse_group_spec(text, "--groups");
    for (int nranks = 1; nranks <= 64; ++nranks) {
      const std::vector<std::uint32_t> colors = group_colors(spec, one_node(nranks));
      for (int r = 0; r < nranks; ++r)
        ASSERT_EQ(static_cast<int>(colors[static_cast<std::size_t>(r)]), reference_color(text, r))
            << text << " rank " << r << " of " << nranks;
    }
  }
}

TEST(GroupSpecs, CanonicalNamesAndTheMaskVariable) {
  EXPECT_EQ(parse_group_spec(" mod 0x8 ", "--groups").name(), "MOD 8");
  EXPECT_EQ(parse_group_spec("/2", "--groups").name(), "DIV 2");
  EXPECT_EQ(parse_group_spec("Intra-Node", "--groups").kind, GroupKind::IntraNode);
  const GroupSpec mask = parse_split_mask("0x6", "NCCL_TESTS_SPLIT_MASK");
  EXPECT_EQ(mask.op, SplitOp::And);
  EXPECT_EQ(mask.value, 6u);
  EXPECT_EQ(parse_split_mask("10", "NCCL_TESTS_SPLIT_MASK").value, 16u);  // hex, as nccl-tests reads it
}

TEST(GroupSpecs, MalformedSpecsAreInputErrorsNamingTheInput) {
  for (const char* bad : {"", "MOD", "MOD 0", "DIV 0", "XOR 2", "MOD 8x", "MOD -1", "MOD 0x", "AND 0b2",
                          "MOD 99999999999", "worlds", "MOD 8 2"}) {
    try {
      parse_group_spec(bad, "--groups");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--groups: ", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(parse_group_specs("world,MOD 2,mod 2", "--groups"), InputError);
  EXPECT_THROW(parse_group_specs("world,", "--groups"), InputError);
  EXPECT_EQ(parse_group_specs("world,intra-node,inter-node,DIV 2", "--groups").size(), 4u);
}

// The emulated cluster of the issue: 4 nodes x 2 ranks.
const std::vector<int> kFourNodesOfTwo{0, 0, 1, 1, 2, 2, 3, 3};

TEST(GroupLayouts, WorldIntraNodeAndInterNodeOnFourNodesOfTwoRanks) {
  const GroupLayout world = layout_groups(GroupSpec{}, kFourNodesOfTwo);
  EXPECT_EQ(world.shape(), "1x8x4");
  const GroupLayout intra = layout_groups(GroupSpec{.kind = GroupKind::IntraNode}, kFourNodesOfTwo);
  EXPECT_EQ(intra.shape(), "4x2x1");
  EXPECT_EQ(intra.groups[2].ranks, (std::vector<int>{4, 5}));
  EXPECT_EQ(intra.groups[2].nodes, (std::vector<int>{2}));
  const GroupLayout inter = layout_groups(GroupSpec{.kind = GroupKind::InterNode}, kFourNodesOfTwo);
  EXPECT_EQ(inter.shape(), "2x4x4");
  EXPECT_EQ(inter.groups[1].ranks, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(inter.group_of_rank, (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}));
  // nccl-tests' spellings of the same shapes on 2-rank nodes.
  EXPECT_EQ(layout_groups(parse_group_spec("DIV 2", "t"), kFourNodesOfTwo).groups.size(), 4u);
  EXPECT_EQ(layout_groups(parse_group_spec("MOD 2", "t"), kFourNodesOfTwo).group_of_rank,
            inter.group_of_rank);
}

TEST(GroupLayouts, UnevenGroupsAndNodeNumbersFromHostNames) {
  const GroupLayout mod3 = layout_groups(parse_group_spec("MOD 3", "t"), one_node(8));
  EXPECT_FALSE(mod3.uniform());
  EXPECT_EQ(mod3.shape(), "3x3x1");
  EXPECT_EQ(node_numbers({"b", "b", "a", "c", "a"}), (std::vector<int>{0, 0, 1, 2, 1}));
}

SweepOptions grouped(const char* specs) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 4096, 4.0, 0};
  o.collectives = {Collective::AllReduce, Collective::AllGather};
  o.groups = parse_group_specs(specs, "--groups");
  return o;
}

PlanLimits four_nodes_of_two() { return PlanLimits{8, 2, 0, 0, kFourNodesOfTwo}; }

TEST(GroupPlans, EverySpecIsOneMoreDimensionWithCountsOfItsGroups) {
  const Plan plan =
      make_plan(grouped("world,intra-node"), {Setting{"default", "", {}, {}}}, four_nodes_of_two());
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_EQ(plan.cases.size(), 2u * 2u * 2u * 2u);  // specs x collectives x sizes x placements
  const auto intra = std::find_if(plan.cases.begin(), plan.cases.end(), [](const Case& c) {
    return c.group.kind == GroupKind::IntraNode && c.collective == Collective::AllGather;
  });
  ASSERT_NE(intra, plan.cases.end());
  EXPECT_EQ(intra->count, intra->bytes / 4 / 2);  // float elements per rank of a 2-rank group
  EXPECT_EQ(plan.layout_of(intra->group).shape(), "4x2x1");
}

TEST(GroupPlans, AGroupOfOneRankOrARootOutsideAGroupIsBadInput) {
  const std::vector<Setting> settings{Setting{"default", "", {}, {}}};
  EXPECT_THROW(make_plan(grouped("MOD 8"), settings, four_nodes_of_two()), InputError);
  EXPECT_THROW(make_plan(grouped("world,intra-node"), settings, PlanLimits{8, 1, 0}), InputError);
  SweepOptions rooted = grouped("intra-node");
  rooted.root = 2;
  EXPECT_THROW(make_plan(rooted, settings, four_nodes_of_two()), InputError);
}

TEST(SplitEnvironment, UsedWithoutGroupsIgnoredWithThemAndSaidEitherWay) {
  SweepOptions o;
  apply_split_environment(SplitEnvironment{"MOD 2", nullptr}, false, o);
  ASSERT_EQ(o.groups.size(), 1u);
  EXPECT_EQ(o.groups[0].name(), "MOD 2");
  EXPECT_EQ(o.notes.size(), 1u);
  SweepOptions chosen;
  chosen.groups = {GroupSpec{.kind = GroupKind::InterNode}};
  apply_split_environment(SplitEnvironment{"MOD 2", "0x1"}, true, chosen);
  EXPECT_EQ(chosen.groups[0].kind, GroupKind::InterNode);
  EXPECT_EQ(chosen.notes.size(), 1u);
  SweepOptions mask;
  apply_split_environment(SplitEnvironment{"MOD 2", "0x1"}, false, mask);
  EXPECT_EQ(mask.groups[0].name(), "AND 1");  // nccl-tests reads the mask first
  SweepOptions bad;
  EXPECT_THROW(apply_split_environment(SplitEnvironment{"MOD zero", nullptr}, false, bad), InputError);
  SweepOptions none;
  apply_split_environment(SplitEnvironment{}, false, none);
  EXPECT_TRUE(none.notes.empty());
  EXPECT_TRUE(none.groups[0].is_world());
}

TEST(GroupedCase, TheSlowestGroupIsTheCasesFigureAndBusbwAddsUp) {
  const GroupLayout intra = layout_groups(GroupSpec{.kind = GroupKind::IntraNode}, kFourNodesOfTwo);
  Case c;
  c.collective = Collective::AllReduce;
  c.bytes = 1 << 20;
  c.root = -1;
  c.group = intra.spec;
  std::vector<std::vector<double>> seconds{{1e-3, 1e-3}, {2e-3, 2e-3}, {1e-3, 1e-3}, {1e-3, 1e-3}};
  SampleRun run;
  run.samples = {2e-3, 2e-3};
  const CaseResult r = grouped_case(c, "default", intra, seconds, run, 0);
  ASSERT_TRUE(r.groups);
  EXPECT_EQ(r.groups->slowest, 1u);
  EXPECT_DOUBLE_EQ(r.time_us.median, 2000);
  EXPECT_EQ(r.nranks, 2);
  // allreduce on 2 ranks: busbw = algbw; 1 MiB in 1 ms is 1.048576 GB/s, in 2 ms half that
  EXPECT_NEAR(r.groups->busbw_sum_gbps, 3 * 1.048576 + 0.524288, 1e-9);
  // Written and read back, the same figures.
  const CaseResult back = case_from_json(to_json(r), "r.json: cases[0]");
  ASSERT_TRUE(back.groups);
  EXPECT_EQ(back.spec.group, intra.spec);
  EXPECT_EQ(back.groups->shape, "4x2x1");
  EXPECT_EQ(back.groups->groups[3].ranks, (std::vector<int>{6, 7}));
  EXPECT_EQ(to_json(back), to_json(r));
}

}  // namespace
}  // namespace commtune
