#include <gtest/gtest.h>

#include <set>

#include "core/errors.hpp"
#include "control/local_control_plane.hpp"
#include "sweep/sweep_runner.hpp"

namespace commtune {
namespace {

// A backend whose settings and cases fail on demand.
class ScriptedBackend : public Backend {
 public:
  std::set<std::string> refuse_settings;
  std::set<std::size_t> failing_cases;  // plan indices
  std::vector<std::string> opened;

  std::string name() const override { return "fake"; }
  PlanLimits limits() const override { return {2, 2, 0}; }
  CostModel cost_model() const override { return {}; }
  nlohmann::json provenance() const override { return {}; }
  void validate(const Setting&, const SweepOptions&) const override {}
  std::unique_ptr<SettingSession> open(const Setting& s, const SweepOptions&) override {
    opened.push_back(s.name);
    if (refuse_settings.count(s.name)) throw SettingError("knob refused for " + s.name);
    return std::make_unique<Session>(*this);
  }

 private:
  struct Session : SettingSession {
    explicit Session(ScriptedBackend& b) : backend(b) {}
    CaseResult run_case(const Case& c, const Setting& s) override {
      if (backend.failing_cases.count(c.index)) throw BackendError("collective call failed: injected");
      return measured_case(c, s.name, 2, {1e-6, 2e-6, 3e-6}, 2e-6, 0);
    }
    ScriptedBackend& backend;
  };
};

class RecordingSink : public ResultSink {
 public:
  void case_finished(const CaseResult& r) override { results.push_back(r); }
  std::vector<CaseResult> results;
};

Plan three_setting_plan() {
  SweepOptions o;
  o.sizes = SizeRange{8, 32, 2.0, 0};  // 8 16 32
  o.collectives = {Collective::AllReduce};
  o.placements = {Placement::OutOfPlace};
  return make_plan(o, {Setting{"default", "", {}, {}}, Setting{"bad", "", {{"k", "1"}}, {}}, Setting{"good", "", {{"k", "2"}}, {}}},
                   PlanLimits{2, 2, 0});
}

TEST(SweepRunner, ARefusedSettingFailsItsCasesWithTheReasonAndTheSweepGoesOn) {
  const Plan plan = three_setting_plan();
  ScriptedBackend backend;
  backend.refuse_settings = {"bad"};
  LocalControlPlane control;  // one supervisor: its own failure is the verdict
  RecordingSink sink;
  const RunSummary summary = run_sweep(SweepRun{plan, backend, control, [] { return false; }}, sink);
  ASSERT_EQ(sink.results.size(), 9u);
  for (const auto& r : sink.results) {
    if (r.setting == "bad") {
      EXPECT_EQ(r.status, CaseStatus::Failed);
      EXPECT_NE(r.reason.find("knob refused for bad"), std::string::npos) << r.reason;
    } else {
      EXPECT_EQ(r.status, CaseStatus::Ok);
    }
  }
  EXPECT_EQ(summary.failed, 3u);
  EXPECT_EQ(summary.measured, 6u);
  EXPECT_TRUE(summary.complete);
  EXPECT_EQ(backend.opened, (std::vector<std::string>{"default", "bad", "good"}));
}

TEST(SweepRunner, AFailingCaseIsRecordedAndTheNextCaseRuns) {
  const Plan plan = three_setting_plan();
  ScriptedBackend backend;
  backend.failing_cases = {1};
  LocalControlPlane control;  // one supervisor: its own failure is the verdict
  RecordingSink sink;
  const RunSummary summary = run_sweep(SweepRun{plan, backend, control, [] { return false; }}, sink);
  ASSERT_EQ(sink.results.size(), 9u);
  EXPECT_EQ(sink.results[1].status, CaseStatus::Failed);
  EXPECT_NE(sink.results[1].reason.find("injected"), std::string::npos);
  EXPECT_EQ(sink.results[2].status, CaseStatus::Ok);
  EXPECT_EQ(summary.failed, 1u);
}

TEST(SweepRunner, AnInterruptStopsCleanlyAfterTheCurrentCase) {
  const Plan plan = three_setting_plan();
  ScriptedBackend backend;
  LocalControlPlane control;  // one supervisor: its own failure is the verdict
  RecordingSink sink;
  int polls = 0;
  const RunSummary summary = run_sweep(SweepRun{plan, backend, control, [&] { return ++polls > 4; }}, sink);
  EXPECT_EQ(sink.results.size(), 4u);
  EXPECT_FALSE(summary.complete);
}

}  // namespace
}  // namespace commtune
