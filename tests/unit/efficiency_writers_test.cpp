// The efficiency column, the verdict and the results' efficiency field when a run has a ceiling
// (provenance.ceiling); golden files table-ceiling.txt and results-ceiling.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ceiling/ceiling.hpp"
#include "writers/efficiency_summary.hpp"
#include "writers/json_results_writer.hpp"
#include "writers/table_writer.hpp"
#include "plan/plan.hpp"
#include "results/results_document.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

namespace fs = std::filesystem;

Plan two_size_plan() {
  SweepOptions o;
  o.sizes = SizeRange{1024, 4096, 4.0, 0};
  o.collectives = {Collective::AllReduce};
  return make_plan(o, {Setting{"default", "nothing forced", {}, {}}}, PlanLimits{4, 4, 0});
}

std::vector<CaseResult> results_of(const Plan& plan) {
  std::vector<CaseResult> out;
  for (const Case& c : plan.cases) {
    std::vector<double> seconds;
    for (int i = 0; i < 20; ++i)
      seconds.push_back((2.0 + static_cast<double>(c.index) + (i % 5) * 0.25) * 1e-6);
    out.push_back(measured_case(c, "default", 4, seconds, 2e-6, 0));
  }
  return out;
}

nlohmann::json provenance_with_ceiling() {
  return {{"tool", "commtune"},
          {"start_time", "2026-01-01T00:00:00Z"},
          {"ceiling", to_json(Ceiling{4.0, "host memory copy",
                                      "measured: memcpy of 64 MiB, median of 7 copies", 0, 0, ""})}};
}

TEST(EfficiencyWriters, TableHasAnEfficiencyColumnAndAVerdict) {
  const Plan plan = two_size_plan();
  std::ostringstream out;
  TableWriter table(out);
  table.begin(RunHeader{plan, BackendKind::Mpi, provenance_with_ceiling()});
  for (const auto& r : results_of(plan)) table.case_finished(r);
  table.end(RunSummary{plan.cases.size(), 0, 0, true});
  const std::string text = out.str();
  EXPECT_NE(text.find("# eff%: busbw / ceiling; ceiling 4.0 GB/s: host memory copy"), std::string::npos)
      << text;
  EXPECT_NE(text.find("# efficiency: default allreduce peak busbw"), std::string::npos) << text;
  testing::expect_golden("table-ceiling.txt", text);
}

TEST(EfficiencyWriters, ResultsCarryEachCasesEfficiencyAndReadBack) {
  const fs::path dir = fs::temp_directory_path() / ("commtune-eff-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Plan plan = two_size_plan();
  JsonResultsWriter writer((dir / "r.json").string());
  writer.begin(RunHeader{plan, BackendKind::Mpi, provenance_with_ceiling()});
  const auto results = results_of(plan);
  for (const auto& r : results) writer.case_finished(r);
  writer.end(RunSummary{});
  std::ifstream in(writer.path());
  std::stringstream text;
  text << in.rdbuf();
  testing::expect_golden("results-ceiling.json", text.str());
  const ResultsDocument doc = load_results(writer.path());
  const nlohmann::json raw = nlohmann::json::parse(text.str());
  ASSERT_EQ(raw["cases"].size(), results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    EXPECT_DOUBLE_EQ(raw["cases"][i]["efficiency"].get<double>(), results[i].busbw_gbps / 4.0);
  std::ostringstream summary;
  write_efficiency_summary(doc, summary);
  EXPECT_NE(summary.str().find("verdict: busbw"), std::string::npos) << summary.str();
  fs::remove_all(dir);
}

TEST(EfficiencyWriters, AnEfficiencyFarAboveTheCeilingReadsBack) {
  // A one-rank broadcast moves nothing (busbw from a near-zero time), and a host copy ceiling
  // measured on a busy machine can be low: the sweep writes 100x the ceiling, its reader takes it.
  const fs::path dir = fs::temp_directory_path() / ("commtune-eff-high-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Plan plan = two_size_plan();
  JsonResultsWriter writer((dir / "r.json").string());
  nlohmann::json provenance = provenance_with_ceiling();
  provenance["ceiling"]["gbps"] = 0.004;  // 1000x below the busbw of these cases
  writer.begin(RunHeader{plan, BackendKind::Mpi, provenance});
  for (const auto& r : results_of(plan)) writer.case_finished(r);
  writer.end(RunSummary{});
  const ResultsDocument doc = load_results(writer.path());
  ASSERT_FALSE(doc.cases.empty());
  EXPECT_GT(doc.cases.front().busbw_gbps / 0.004, 100);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commtune
