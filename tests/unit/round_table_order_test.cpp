// The table of a racing round run side by side reaches the table setting by setting
// (writers/round_table_order); outside racing rounds the cases pass straight through.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "writers/round_table_order.hpp"

namespace commtune {
namespace {

// Every hook as a line: "round 1", "case b 2048", "notice ...", "end".
struct EventLog : ResultSink {
  std::vector<std::string>* lines;
  explicit EventLog(std::vector<std::string>& out) : lines(&out) {}
  void round_started(std::size_t round, std::size_t, std::size_t) override {
    lines->push_back("round " + std::to_string(round));
  }
  void case_finished(const CaseResult& r) override {
    lines->push_back("case " + r.setting + " " + std::to_string(r.spec.bytes));
  }
  void notice(const std::string& text) override { lines->push_back("notice " + text); }
  void end(const RunSummary&) override { lines->push_back("end"); }
};

CaseResult result(const std::string& setting, std::uint64_t bytes) {
  Case c;
  c.bytes = bytes;
  return measured_case(c, setting, 2, {1e-6, 2e-6, 3e-6}, 2e-6, 0);
}

Plan plan_of(const std::vector<std::string>& names) {
  Plan plan;
  for (const auto& n : names) plan.settings.push_back(Setting{n, "", {}, {}});
  return plan;
}

TEST(RoundTableOrder, ARoundReachesTheTableSettingBySettingWhenItEnds) {
  std::vector<std::string> lines;
  RoundTableOrder sink(std::make_unique<EventLog>(lines));
  const Plan plan = plan_of({"default", "b", "c"});
  sink.begin(RunHeader{plan, BackendKind::Mpi, {}, 1});
  sink.round_started(0, 4, 6);
  for (std::uint64_t bytes : {1024, 2048})
    for (const char* s : {"c", "default", "b"}) sink.case_finished(result(s, bytes));
  EXPECT_EQ(lines, (std::vector<std::string>{"round 0"}));  // held until the round ends
  sink.round_started(1, 4, 2);
  sink.case_finished(result("b", 1024));
  sink.case_finished(result("default", 1024));
  sink.notice("racing ends");
  sink.end(RunSummary{});
  EXPECT_EQ(lines,
            (std::vector<std::string>{"round 0", "case default 1024", "case default 2048", "case b 1024",
                                      "case b 2048", "case c 1024", "case c 2048", "round 1",
                                      "case default 1024", "case b 1024", "notice racing ends", "end"}));
}

TEST(RoundTableOrder, OutsideRacingRoundsCasesPassStraightThrough) {
  std::vector<std::string> lines;
  RoundTableOrder sink(std::make_unique<EventLog>(lines));
  const Plan plan = plan_of({"default", "b"});
  sink.begin(RunHeader{plan, BackendKind::Mpi, {}, 1});
  sink.case_finished(result("b", 8));
  EXPECT_EQ(lines, (std::vector<std::string>{"case b 8"}));
  sink.case_finished(result("default", 8));
  sink.end(RunSummary{});
  EXPECT_EQ(lines, (std::vector<std::string>{"case b 8", "case default 8", "end"}));
}

}  // namespace
}  // namespace commtune
