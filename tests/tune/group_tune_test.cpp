// Tuning per communicator shape (--groups): the tuner decides per (collective, size, group spec),
// each decision carries its shape, and the exports give each shape its own rules: NCCL tuner rows
// with the shape's nNodes and nRanks, Open MPI sections per communicator size in increasing order.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "exports/export_writer.hpp"
#include "plan/groups.hpp"
#include "tune/export_plan.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;
using testing::synthetic_document;

std::vector<double> around(double us) {
  std::vector<double> out;
  for (int i = 0; i < 40; ++i) out.push_back(us * (1 + 0.002 * (i % 5)));
  return out;
}

// A case of `spec` on 4 nodes x 2 ranks: each group's figures are the case's.
CaseResult on_groups(CaseResult r, const char* spec) {
  const std::vector<int> nodes{0, 0, 1, 1, 2, 2, 3, 3};
  const GroupLayout layout = layout_groups(parse_group_spec(spec, "test"), nodes);
  r.spec.group = layout.spec;
  r.nranks = static_cast<int>(layout.groups.front().ranks.size());
  CaseGroups groups{.shape = layout.shape()};
  for (const RankGroup& g : layout.groups)
    groups.groups.push_back({.ranks = g.ranks, .nodes = g.nodes, .time_us = r.time_us});
  r.groups = groups;
  return r;
}

// Two algorithms: "ring" wins on the world only, "linear" on the inter-node groups only.
ResultsDocument two_shapes(const std::string& backend, const std::string& knob, const std::string& ring,
                           const std::string& linear) {
  std::vector<CaseResult> cases;
  for (const std::uint64_t bytes : {std::uint64_t{65536}, std::uint64_t{1} << 20}) {
    const auto at = [&](const char* setting, double us) {
      return synthetic_case(setting, Collective::AllReduce, bytes, Placement::OutOfPlace, around(us), 8);
    };
    cases.push_back(at("default", 100));
    cases.push_back(at("ring", 70));
    cases.push_back(at("linear", 100));
    cases.push_back(on_groups(at("default", 50), "inter-node"));
    cases.push_back(on_groups(at("ring", 50), "inter-node"));
    cases.push_back(on_groups(at("linear", 30), "inter-node"));
  }
  return synthetic_document(backend,
                            {Setting{"default", "", {}, {}}, Setting{"ring", "", {{knob, ring}}, {}},
                             Setting{"linear", "", {{knob, linear}}, {}}},
                            cases);
}

const SizeDecision* decision(const Recommendation& rec, const std::string& group, std::uint64_t bytes) {
  for (const auto& d : rec.sizes)
    if (d.group.spec == group && d.bytes == bytes) return &d;
  return nullptr;
}

TEST(GroupTuning, EachShapeHasItsOwnWinnerAndShape) {
  ResultsDocument doc = two_shapes("mpi", "coll_tuned_allreduce_algorithm", "ring", "basic_linear");
  doc.provenance = {{"layout", {{"nhosts", 4}}}};
  const Recommendation rec = tune(doc, TuneOptions{});
  ASSERT_EQ(rec.sizes.size(), 4u);
  const SizeDecision* world = decision(rec, "world", 65536);
  const SizeDecision* inter = decision(rec, "inter-node", 65536);
  ASSERT_TRUE(world && inter);
  EXPECT_EQ(world->winner, "ring");
  EXPECT_EQ(inter->winner, "linear");
  EXPECT_EQ(inter->group.nranks, 4);
  EXPECT_EQ(inter->group.nnodes, 4);
  // Written and read back, the same recommendation.
  const nlohmann::json j = to_json(rec);
  EXPECT_EQ(to_json(recommendation_from_json(j, "rec.json")), j);
}

TEST(GroupTuning, OpenMpiRulesGetOneSectionPerCommunicatorSizeInIncreasingOrder) {
  ResultsDocument doc = two_shapes("mpi", "coll_tuned_allreduce_algorithm", "ring", "basic_linear");
  const ExportPlan plan = make_export_plan(tune(doc, TuneOptions{}));
  ASSERT_EQ(plan.ompi_group_rules.size(), 1u);
  EXPECT_EQ(plan.ompi_group_rules[0].comm_size, 4);
  std::ostringstream out;
  OmpiRulesWriter().write(plan, out);
  // 1 collective; allreduce (id 2); 2 sections: 4 ranks (basic_linear = 1), then 8 ranks (ring = 4).
  std::istringstream in(out.str());
  int collectives = 0, id = 0, sections = 0, size_a = 0, rules_a = 0;
  in >> collectives >> id >> sections >> size_a >> rules_a;
  EXPECT_EQ(collectives, 1);
  EXPECT_EQ(sections, 2);
  EXPECT_EQ(size_a, 4);
  std::uint64_t from = 0;
  int algorithm = -1, fanout = 0, segment = 0;
  in >> from >> algorithm >> fanout >> segment;
  EXPECT_EQ(algorithm, 1);
  for (int i = 1; i < rules_a; ++i) in >> from >> algorithm >> fanout >> segment;
  int size_b = 0, rules_b = 0;
  in >> size_b >> rules_b >> from >> algorithm;
  EXPECT_EQ(size_b, 8);
  EXPECT_EQ(algorithm, 4);
}

TEST(GroupTuning, NcclTunerRowsCarryEachShapesNodesAndRanks) {
  ResultsDocument doc = two_shapes("nccl", "NCCL_ALGO", "Ring", "Tree");
  for (auto& s : doc.settings)
    if (!s.knobs.empty()) s.knobs["NCCL_PROTO"] = "Simple";
  doc.provenance = {{"layout", {{"nhosts", 4}}}};
  const ExportPlan plan = make_export_plan(tune(doc, TuneOptions{}));
  ASSERT_EQ(plan.tuner_rows.size(), 2u);
  EXPECT_EQ(plan.tuner_rows[0].algorithm, "ring");
  EXPECT_EQ(plan.tuner_rows[0].nranks, 8);
  EXPECT_EQ(plan.tuner_rows[0].nnodes, 4);
  EXPECT_EQ(plan.tuner_rows[1].algorithm, "tree");
  EXPECT_EQ(plan.tuner_rows[1].nranks, 4);
  EXPECT_EQ(plan.tuner_rows[1].nnodes, 4);
}

// One value for the whole job: "ring" saves 30% on the world and loses 20% on the inter-node groups;
// it is chosen on the objective, and the env file's summary says what each shape gets.
TEST(GroupTuning, AJobWideChoiceSaysWhatEachShapeGainsAndLoses) {
  std::vector<CaseResult> cases;
  for (const std::uint64_t bytes : {std::uint64_t{65536}, std::uint64_t{1} << 20}) {
    const auto at = [&](const char* setting, double us) {
      return synthetic_case(setting, Collective::AllReduce, bytes, Placement::OutOfPlace, around(us), 8);
    };
    cases.push_back(at("default", 100));
    cases.push_back(at("ring", 70));
    cases.push_back(on_groups(at("default", 50), "inter-node"));
    cases.push_back(on_groups(at("ring", 60), "inter-node"));
  }
  ResultsDocument doc = synthetic_document(
      "mpi",
      {Setting{"default", "", {}, {}}, Setting{"ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {}}},
      cases);
  doc.provenance = {{"layout", {{"nhosts", 4}}}};
  const Recommendation rec = tune(doc, TuneOptions{});
  const auto choice = std::find_if(rec.choices.begin(), rec.choices.end(),
                                   [](const JobChoice& c) { return c.setting == "ring"; });
  ASSERT_NE(choice, rec.choices.end());
  const std::vector<ShapeEffect> effects = shape_effects(rec, *choice);
  ASSERT_EQ(effects.size(), 2u);
  EXPECT_EQ(effects[0].shape.spec, "world");
  EXPECT_EQ(effects[0].faster, 2u);
  EXPECT_EQ(effects[0].slower, 0u);
  EXPECT_NEAR(effects[0].best, 0.3, 0.01);
  EXPECT_EQ(effects[1].shape.spec, "inter-node");
  EXPECT_EQ(effects[1].shape.nranks, 4);
  EXPECT_EQ(effects[1].faster, 0u);
  EXPECT_EQ(effects[1].slower, 2u);
  EXPECT_NEAR(effects[1].worst, -0.2, 0.01);
  // The env file's summary has one line per shape under the choice.
  const ExportPlan plan = make_export_plan(rec);
  const auto shape_lines = std::count_if(plan.summary.begin(), plan.summary.end(),
                                         [](const std::string& l) { return l.rfind("  on ", 0) == 0; });
  EXPECT_EQ(shape_lines, 2);
}

}  // namespace
}  // namespace commtune
