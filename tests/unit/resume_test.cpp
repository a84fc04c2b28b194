// --resume's checks on synthetic files: the same plan and provenance resume, the finished cases
// leave the plan, and another plan, backend, rank count or machine is refused with the reason.
#include <gtest/gtest.h>

#include "results/results_json.hpp"
#include "sweep/resume.hpp"

namespace commtune {
namespace {

Plan small_plan(double noise_target = 0.01) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 4096, 2.0, 0};  // 3 sizes
  o.collectives = {Collective::AllReduce};
  o.stopping.target_relative_ci = noise_target;
  return make_plan(o, {Setting{"default", "", {}, {}}, Setting{"ring", "", {{"k", "ring"}}, {}}},
                   PlanLimits{4, 4, 0});
}

nlohmann::json machine(const std::string& mpi) {
  return {{"tool", "commtune"},
          {"mpi", {{"mpi_library", mpi}}},
          {"start_time", "2026-01-01T00:00:00Z"},
          {"argv", {"a"}}};
}

// What an interrupted sweep of `plan` leaves: its first `finished` cases, "complete": false.
ResultsDocument interrupted(const Plan& plan, std::size_t finished) {
  ResultsDocument doc;
  doc.schema_version = 1;
  doc.backend = BackendKind::Mpi;
  doc.provenance = machine("Open MPI v4.1.4");
  doc.sweep = to_json(plan.options);
  doc.settings = plan.settings;
  for (std::size_t i = 0; i < finished; ++i)
    doc.cases.push_back(measured_case(plan.cases[i], plan.settings[plan.cases[i].setting_index].name, 4,
                                      {1e-5, 2e-5}, 1e-5, 0));
  return doc;
}

nlohmann::json later_run() {
  nlohmann::json p = machine("Open MPI v4.1.4");
  p["start_time"] = "2026-01-02T00:00:00Z";
  p["argv"] = {"b", "--resume"};
  return p;
}

TEST(Resume, TheSamePlanOnTheSameMachineResumesAndOnlyTheUnfinishedCasesRemain) {
  const Plan plan = small_plan();
  const ResultsDocument old = interrupted(plan, 8);
  EXPECT_EQ(resume_refusal(old, plan, BackendKind::Mpi, later_run()), std::nullopt);
  const Plan rest = remaining_plan(plan, old);
  ASSERT_EQ(rest.cases.size(), plan.cases.size() - 8);
  for (std::size_t i = 0; i < rest.cases.size(); ++i) EXPECT_EQ(rest.cases[i].index, plan.cases[8 + i].index);
}

TEST(Resume, AGroupedSweepResumesItsGroupsCasesAndAnotherGroupListIsRefused) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 4096, 2.0, 0};
  o.collectives = {Collective::AllReduce};
  o.groups = parse_group_specs("world,MOD 2", "--groups");
  const Plan plan = make_plan(o, {Setting{"default", "", {}, {}}}, PlanLimits{4, 4, 0});
  ASSERT_EQ(plan.cases.size(), 2u * 3u * 2u);
  // Interrupted after the world's cases and the first grouped one (measured on 2-rank groups).
  ResultsDocument old = interrupted(plan, 6);
  CaseResult grouped = measured_case(plan.cases[6], "default", 2, {1e-5, 2e-5}, 1e-5, 0);
  old.cases.push_back(grouped);
  EXPECT_EQ(resume_refusal(old, plan, BackendKind::Mpi, later_run()), std::nullopt);
  const Plan rest = remaining_plan(plan, old);
  ASSERT_EQ(rest.cases.size(), plan.cases.size() - 7);
  for (const Case& c : rest.cases) EXPECT_EQ(c.group.name(), "MOD 2");
  SweepOptions other = o;
  other.groups = parse_group_specs("world,DIV 2", "--groups");
  const Plan changed = make_plan(other, {Setting{"default", "", {}, {}}}, PlanLimits{4, 4, 0});
  EXPECT_NE(resume_refusal(old, changed, BackendKind::Mpi, later_run()), std::nullopt);
}

TEST(Resume, AnotherPlanBackendRankCountOrMachineIsRefusedWithTheReason) {
  const Plan plan = small_plan();
  const ResultsDocument old = interrupted(plan, 4);
  EXPECT_NE(resume_refusal(old, small_plan(0.05), BackendKind::Mpi, later_run())->find("sweep options"),
            std::string::npos);
  EXPECT_NE(resume_refusal(old, plan, BackendKind::Nccl, later_run())->find("mpi backend"),
            std::string::npos);
  Plan more_ranks = plan;
  more_ranks.nranks = 8;
  EXPECT_NE(resume_refusal(old, more_ranks, BackendKind::Mpi, later_run())->find("4 ranks"),
            std::string::npos);
  EXPECT_NE(resume_refusal(old, plan, BackendKind::Mpi, machine("Open MPI v5.0.0"))->find("mpi/mpi_library"),
            std::string::npos);
  Plan other_knob = plan;
  other_knob.settings[1].knobs["k"] = "basic_linear";
  EXPECT_NE(resume_refusal(old, other_knob, BackendKind::Mpi, later_run())->find("setting ring"),
            std::string::npos);
  ResultsDocument complete = old;
  complete.complete = true;
  EXPECT_NE(resume_refusal(complete, plan, BackendKind::Mpi, later_run())->find("nothing to resume"),
            std::string::npos);
}

}  // namespace
}  // namespace commtune
