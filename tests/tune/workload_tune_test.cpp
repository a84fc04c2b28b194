// tune --workload (issue 28): job-wide choices judged on a training step's own sizes. A sweep over a
// grid of sizes the job never uses can make a setting look best that loses on the job's sizes.
#include <gtest/gtest.h>

#include <algorithm>

#include "tune/step_objective.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;
using testing::synthetic_document;

std::vector<double> near(double us) {
  std::vector<double> samples;
  for (int i = 0; i < 40; ++i) samples.push_back(us * (1 + 0.002 * ((i % 7) - 3)));
  return samples;
}

// The grid: 64 KiB to 1 MiB, where "grid-best" saves 30% and "job-best" loses 10%; the job's own
// size, 4 MiB, where "grid-best" loses 20% and "job-best" saves 25%.
ResultsDocument grid_and_job() {
  std::vector<CaseResult> cases;
  const auto add = [&](std::uint64_t bytes, double base, double grid, double job) {
    cases.push_back(
        synthetic_case("default", Collective::AllReduce, bytes, Placement::OutOfPlace, near(base)));
    cases.push_back(
        synthetic_case("grid-best", Collective::AllReduce, bytes, Placement::OutOfPlace, near(grid)));
    cases.push_back(
        synthetic_case("job-best", Collective::AllReduce, bytes, Placement::OutOfPlace, near(job)));
  };
  for (std::uint64_t bytes = 64 << 10; bytes <= (1 << 20); bytes *= 2) add(bytes, 100, 70, 110);
  add(4 << 20, 1000, 1200, 750);
  return synthetic_document(
      "mpi",
      {Setting{"default", "", {}, {}},
       Setting{"grid-best", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {}},
       Setting{"job-best", "", {{"coll_tuned_allreduce_algorithm", "recursive_doubling"}}, {}}},
      cases);
}

std::string allreduce_choice(const Recommendation& rec) {
  const auto c = std::find_if(rec.choices.begin(), rec.choices.end(),
                              [](const JobChoice& j) { return j.scope == "allreduce"; });
  return c == rec.choices.end() ? "" : c->setting;
}

TEST(WorkloadTune, TheGridsBestIsNotTheJobsBest) {
  const ResultsDocument doc = grid_and_job();
  EXPECT_EQ(allreduce_choice(tune(doc, TuneOptions{})), "grid-best");  // the size grid's objective
  TuneOptions options;
  options.objective.step = {
      ObjectiveCall{.collective = Collective::AllReduce, .bytes = 4 << 20, .group = "world", .count = 8}};
  options.objective.step_origin = "w.json";
  const Recommendation rec = tune(doc, options);
  EXPECT_EQ(allreduce_choice(rec), "job-best");
  const auto c = std::find_if(rec.choices.begin(), rec.choices.end(),
                              [](const JobChoice& j) { return j.scope == "allreduce"; });
  EXPECT_NEAR(c->objective_gain, 0.25, 0.01);  // the step's expected change: all of it at 4 MiB
  EXPECT_TRUE(std::any_of(rec.notes.begin(), rec.notes.end(),
                          [](const std::string& n) { return n.find("w.json") != std::string::npos; }));
}

TEST(WorkloadTune, EachSizeWeighsByItsShareOfTheStepUnderTheDefault) {
  const ResultsDocument doc = grid_and_job();
  const CaseIndex index(doc);
  // 10 calls of 64 KiB (10 x 100 us) and one of 4 MiB (1000 us): half the step each.
  const StepWeights w = step_weights(
      index,
      {ObjectiveCall{.collective = Collective::AllReduce, .bytes = 64 << 10, .group = "world", .count = 10},
       ObjectiveCall{.collective = Collective::AllReduce, .bytes = 4 << 20, .group = "world", .count = 1}});
  ASSERT_EQ(w.keys.size(), 2u);
  EXPECT_NEAR(w.default_step_us, 2000, 10);
  // grid-best: 0.7 on one half, 1.2 on the other: the step 5% faster; job-best: 1.1 and 0.75, 7.5%.
  EXPECT_NEAR(step_gain(index, w, "grid-best", DecisionRule{}).gain, 0.05, 0.01);
  EXPECT_NEAR(step_gain(index, w, "job-best", DecisionRule{}).gain, 0.075, 0.01);
  // A size the sweep did not measure weighs at the nearest measured one, and says so.
  const StepWeights off = step_weights(
      index,
      {ObjectiveCall{.collective = Collective::AllReduce, .bytes = 5 << 20, .group = "world", .count = 1},
       ObjectiveCall{.collective = Collective::AllGather, .bytes = 1 << 20, .group = "world", .count = 1}});
  ASSERT_EQ(off.keys.size(), 1u);
  EXPECT_EQ(off.keys[0].key.bytes, 4u << 20);
  EXPECT_EQ(off.notes.size(), 2u);
}

}  // namespace
}  // namespace commtune
