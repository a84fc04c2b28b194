#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <set>

#include "core/errors.hpp"
#include "control/local_control_plane.hpp"
#include "sweep/session_cache.hpp"
#include "sweep/sweep_runner.hpp"

namespace commtune {
namespace {

// A backend whose settings and cases fail on demand.
class ScriptedBackend : public Backend {
 public:
  std::set<std::string> refuse_settings;
  std::set<std::size_t> failing_cases;  // plan indices
  std::set<std::size_t> slow_cases;     // plan indices: each takes 20 ms before its outcome
  std::vector<std::string> opened;
  std::vector<bool> checked;  // each case's options.check, as the session got it

  BackendKind kind() const override { return BackendKind::Mpi; }
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
    CaseResult run_case(const Case& c, const Setting& s, const SweepOptions& o) override {
      backend.checked.push_back(o.check);
      if (backend.slow_cases.count(c.index)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
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
  return make_plan(o,
                   {Setting{"default", "", {}, {}}, Setting{"bad", "", {{"k", "1"}}, {}},
                    Setting{"good", "", {{"k", "2"}}, {}}},
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

// Every case the sweep ran carries what it cost, a failed one too; a case of a setting that did
// not open never ran and has none.
TEST(SweepRunner, EachCaseRunCarriesItsCost) {
  const Plan plan = three_setting_plan();
  ScriptedBackend backend;
  backend.refuse_settings = {"bad"};
  backend.failing_cases = {6};
  backend.slow_cases = {0, 6};
  LocalControlPlane control;
  RecordingSink sink;
  run_sweep(SweepRun{plan, backend, control, [] { return false; }}, sink);
  ASSERT_EQ(sink.results.size(), 9u);
  for (std::size_t i = 0; i < sink.results.size(); ++i) {
    const CaseResult& r = sink.results[i];
    if (r.setting == "bad") {
      EXPECT_FALSE(r.cost.has_value()) << i;
      continue;
    }
    ASSERT_TRUE(r.cost.has_value()) << i;
    EXPECT_GE(r.cost->case_s, backend.slow_cases.count(r.spec.index) ? 0.02 : 0.0) << i;
  }
  EXPECT_EQ(sink.results[6].status, CaseStatus::Failed);
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

TEST(SweepRunner, AKeptSessionServesTheNextPlanWithItsOptionsAndAFailedOneOpensAfresh) {
  const Plan plan = three_setting_plan();
  Plan unchecked = plan;
  unchecked.options.check = false;
  ScriptedBackend backend;
  backend.failing_cases = {1};  // the default setting's second case
  LocalControlPlane control;
  RecordingSink sink;
  SessionCache cache(8);
  const SweepRun run{plan, backend, control, [] { return false; }};
  EXPECT_TRUE(run_sweep(run.keeping_sessions(cache), sink).complete);
  EXPECT_EQ(cache.size(), 3u);  // every session given back, "default" as failed
  cache.close_failed();         // as racing does before each round
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_TRUE(run_sweep(run.with_plan(unchecked).keeping_sessions(cache), sink).complete);
  // "bad" and "good" were kept; "default", whose case failed, was opened afresh.
  EXPECT_EQ(backend.opened, (std::vector<std::string>{"default", "bad", "good", "default"}));
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_TRUE(cache.holds(0) && cache.holds(1) && cache.holds(2));
  // The kept sessions measured the second plan under its own options.
  ASSERT_EQ(backend.checked.size(), 18u);
  EXPECT_EQ(std::count(backend.checked.begin(), backend.checked.begin() + 9, true), 9);
  EXPECT_EQ(std::count(backend.checked.begin() + 9, backend.checked.end(), false), 9);
}

// A plan that visits its settings size by size (a racing round run side by side): each setting
// opens once, a failed case does not close its setting for the sizes after it, and only a
// failure marks the setting to open afresh after the round; a later success does not unmark it.
TEST(SweepRunner, SideBySideEachSettingOpensOnceAndAFailureStaysMarkedForTheRound) {
  Plan plan = three_setting_plan();
  std::stable_sort(plan.cases.begin(), plan.cases.end(),
                   [](const Case& a, const Case& b) { return a.bytes < b.bytes; });
  ScriptedBackend backend;
  backend.failing_cases = {3};  // "bad" at 8 B, its first case
  LocalControlPlane control;
  RecordingSink sink;
  SessionCache cache(8);
  EXPECT_TRUE(run_sweep(SweepRun{plan, backend, control, [] { return false; }}.keeping_sessions(cache), sink)
                  .complete);
  EXPECT_EQ(backend.opened, (std::vector<std::string>{"default", "bad", "good"}));
  ASSERT_EQ(sink.results.size(), 9u);
  EXPECT_EQ(sink.results[1].status, CaseStatus::Failed);
  EXPECT_EQ(sink.results[4].setting, "bad");  // 16 B, on the same session
  EXPECT_EQ(sink.results[4].status, CaseStatus::Ok);
  cache.close_failed();
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_FALSE(cache.holds(1));
}

TEST(SweepRunner, TheSessionCacheClosesTheLeastRecentlyUsedBeyondItsCapacity) {
  const Plan plan = three_setting_plan();
  ScriptedBackend backend;
  LocalControlPlane control;
  RecordingSink sink;
  SessionCache cache(1);
  const SweepRun run{plan, backend, control, [] { return false; }};
  run_sweep(run.keeping_sessions(cache), sink);
  run_sweep(run.keeping_sessions(cache), sink);
  // Only "good", the last, was open when the second plan began, and reopening "default" closed
  // it: in the same order a cache of one saves nothing (racing alternates its rounds' order).
  EXPECT_EQ(backend.opened, (std::vector<std::string>{"default", "bad", "good", "default", "bad", "good"}));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_TRUE(cache.holds(2));
  Plan reversed = plan;
  std::reverse(reversed.cases.begin(), reversed.cases.end());
  run_sweep(run.with_plan(reversed).keeping_sessions(cache), sink);
  EXPECT_EQ(backend.opened.size(), 8u);  // "good" served again; "bad" and "default" reopened
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
