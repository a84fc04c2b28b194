// The tuner's rules on the recorded NCCL fixture (16 ranks on 2 nodes, hand-written) and on small
// synthetic cases: winners need disjoint CIs and the margin, ties keep the default, wrong data
// disqualifies a setting everywhere, job-wide choices follow the objective.
#include <gtest/gtest.h>

#include "results/results_document.hpp"
#include "measure/decision.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::source_path;

Recommendation fixture_recommendation() {
  return tune(load_results(source_path("tests/fixtures/nccl-results-h100x16.json")), TuneOptions{});
}

const SizeDecision& at(const Recommendation& rec, Collective c, std::uint64_t bytes) {
  for (const auto& d : rec.sizes)
    if (d.collective == c && d.bytes == bytes) return d;
  throw std::runtime_error("no decision");
}

const JobChoice& choice(const Recommendation& rec, const std::string& scope) {
  for (const auto& c : rec.choices)
    if (c.scope == scope) return c;
  throw std::runtime_error("no choice for " + scope);
}

TEST(Comparison, DisjointIntervalsAndMarginMakeAWinner) {
  SampleStats base, cand;
  base.median = 100;
  base.median_ci_low = 99;
  base.median_ci_high = 101;
  cand.median = 90;
  cand.median_ci_low = 89;
  cand.median_ci_high = 91;
  EXPECT_TRUE(clearly_faster(compare_stats(base, cand), DecisionRule{.margin = 0.02}));
  EXPECT_TRUE(clearly_slower(compare_stats(cand, base), DecisionRule{.margin = 0.02}));
}

TEST(Comparison, OverlappingIntervalsAreNeverAWinnerWhateverTheGain) {
  SampleStats base, cand;
  base.median = 100;
  base.median_ci_low = 80;
  base.median_ci_high = 120;
  cand.median = 90;
  cand.median_ci_low = 85;
  cand.median_ci_high = 95;
  EXPECT_FALSE(clearly_faster(compare_stats(base, cand), DecisionRule{.margin = 0.02}));
}

TEST(Comparison, AGainBelowTheNoiseFloorIsNotEnough) {
  SampleStats base, cand;
  base.median = 100;
  base.median_ci_low = 96;
  base.median_ci_high = 104;  // 4% noise floor
  cand.median = 97;
  cand.median_ci_low = 95.5;
  cand.median_ci_high = 95.9;
  const Comparison c = compare_stats(base, cand);
  EXPECT_TRUE(c.disjoint_faster);
  EXPECT_NEAR(c.noise_floor, 0.04, 1e-9);
  EXPECT_FALSE(clearly_faster(c, DecisionRule{.margin = 0.02}));
}

TEST(TunerOnNcclFixture, PicksTheClearWinnerPerSize) {
  const Recommendation rec = fixture_recommendation();
  EXPECT_EQ(at(rec, Collective::AllReduce, 1024).winner, "tree-ll");
  EXPECT_NEAR(at(rec, Collective::AllReduce, 1024).gain, 0.30, 1e-9);
  EXPECT_EQ(at(rec, Collective::AllReduce, 16384).winner, "tree-ll");
  EXPECT_EQ(at(rec, Collective::AllReduce, 65536).winner, "ring-simple");
  EXPECT_EQ(at(rec, Collective::AllReduce, 4194304).winner, "ring-simple");
  EXPECT_EQ(at(rec, Collective::AllGather, 1048576).winner, "ring-simple");
}

TEST(TunerOnNcclFixture, TiesKeepTheDefault) {
  const Recommendation rec = fixture_recommendation();
  EXPECT_EQ(at(rec, Collective::AllGather, 1024).winner, "");
  EXPECT_EQ(at(rec, Collective::AllGather, 65536).winner, "");
  EXPECT_FALSE(at(rec, Collective::AllGather, 65536).reason.empty());
}

TEST(TunerOnNcclFixture, WrongDataAnywhereDisqualifiesTheSettingEverywhere) {
  const Recommendation rec = fixture_recommendation();
  ASSERT_TRUE(rec.disqualified.count("ll128-bad"));
  for (const auto& d : rec.sizes) EXPECT_NE(d.winner, "ll128-bad") << name_of(d.collective) << " " << d.bytes;
  for (const auto& c : rec.choices) EXPECT_NE(c.setting, "ll128-bad");
}

TEST(TunerOnNcclFixture, JobWideChoicesFollowTheObjective) {
  const Recommendation rec = fixture_recommendation();
  EXPECT_EQ(choice(rec, "allreduce").setting, "ring-simple");  // 64 KiB and up
  EXPECT_EQ(choice(rec, "allgather").setting, "ring-simple");
  EXPECT_EQ(choice(rec, "process").setting, "default");  // p2p-off is slower
  EXPECT_FALSE(rec.defaults_best());
  EXPECT_EQ(rec.nnodes, 2);
  EXPECT_EQ(rec.nranks, 16);
}

TEST(TunerOnNcclFixture, ASmallSizeObjectivePicksTheSmallSizeWinner) {
  TuneOptions options;
  parse_objective_range("0:16K", options.objective);
  const Recommendation rec =
      tune(load_results(source_path("tests/fixtures/nccl-results-h100x16.json")), options);
  EXPECT_EQ(choice(rec, "allreduce").setting, "tree-ll");
}

TEST(TunerConfirmation, AWinnerThatDoesNotHoldInTheReMeasureIsDropped) {
  using testing::synthetic_case;
  const std::vector<double> fast(50, 80.0), slow(50, 100.0);
  std::vector<double> fast_noisy, slow_noisy;
  for (int i = 0; i < 50; ++i) {
    fast_noisy.push_back(80.0 + i * 0.01);
    slow_noisy.push_back(100.0 + i * 0.01);
  }
  const Setting ring{"ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {}};
  const auto sweep = testing::synthetic_document(
      "mpi", {Setting{"default", "", {}, {}}, ring},
      {synthetic_case("default", Collective::AllReduce, 4096, Placement::OutOfPlace, slow_noisy),
       synthetic_case("ring", Collective::AllReduce, 4096, Placement::OutOfPlace, fast_noisy)});
  const auto holds = testing::synthetic_document(
      "mpi", {Setting{"default", "", {}, {}}, ring},
      {synthetic_case("default", Collective::AllReduce, 4096, Placement::OutOfPlace, slow_noisy),
       synthetic_case("ring", Collective::AllReduce, 4096, Placement::OutOfPlace, fast_noisy)});
  const auto fails = testing::synthetic_document(
      "mpi", {Setting{"default", "", {}, {}}, ring},
      {synthetic_case("default", Collective::AllReduce, 4096, Placement::OutOfPlace, slow_noisy),
       synthetic_case("ring", Collective::AllReduce, 4096, Placement::OutOfPlace, slow_noisy)});
  ASSERT_EQ(pick_finalists(sweep, TuneOptions{}).size(), 1u);
  EXPECT_EQ(tune(sweep, TuneOptions{}, &holds).sizes.front().winner, "ring");
  EXPECT_TRUE(tune(sweep, TuneOptions{}, &holds).sizes.front().confirmed);
  EXPECT_EQ(tune(sweep, TuneOptions{}, &fails).sizes.front().winner, "");
  EXPECT_TRUE(tune(sweep, TuneOptions{}, &fails).defaults_best());
}

}  // namespace
}  // namespace commtune
