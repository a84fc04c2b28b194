#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/errors.hpp"
#include "writers/json_results_writer.hpp"
#include "writers/table_writer.hpp"
#include "results/results_document.hpp"
#include "results/results_json.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

namespace fs = std::filesystem;

Plan synthetic_plan() {
  SweepOptions o;
  o.sizes = SizeRange{1024, 4096, 4.0, 0};
  o.collectives = {Collective::AllReduce};
  std::vector<Setting> settings{
      Setting{"default", "nothing forced", {}, {}},
      Setting{"ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {Collective::AllReduce}}};
  return make_plan(o, settings, PlanLimits{4, 4, 0});
}

// Deterministic samples: case k's iterations take (10 + k) us +- a fixed pattern.
std::vector<CaseResult> synthetic_results(const Plan& plan) {
  std::vector<CaseResult> out;
  for (const Case& c : plan.cases) {
    const std::string& setting = plan.settings[c.setting_index].name;
    if (setting == "ring" && c.bytes == 4096 && c.placement == Placement::InPlace) {
      out.push_back(
          failed_case(c, setting, 4, CaseStatus::Failed, "rank 1: collective call failed: MPI_ERR_OTHER"));
      continue;
    }
    std::vector<double> seconds;
    for (int i = 0; i < 20; ++i)
      seconds.push_back((10.0 + static_cast<double>(c.index) + (i % 5) * 0.5) * 1e-6);
    out.push_back(measured_case(c, setting, 4, seconds, (11.0 + static_cast<double>(c.index)) * 1e-6,
                                c.index == 1 ? 3 : 0));
  }
  return out;
}

nlohmann::json fixed_provenance() { return {{"tool", "commtune"}, {"start_time", "2026-01-01T00:00:00Z"}}; }

TEST(TableWriter, TheNcclBackendShowsNcclTestsTimeInEachHalf) {
  const Plan plan = synthetic_plan();
  std::ostringstream out;
  TableWriter table(out);
  table.begin(RunHeader{plan, BackendKind::Nccl, fixed_provenance()});
  std::vector<CaseResult> results = synthetic_results(plan);
  results[0].nccl_tests = LoopFigure{10.5, 0.1, 0.15};  // out-of-place half of the first row
  table.case_finished(results[0]);
  table.case_finished(results[1]);
  table.end(RunSummary{});
  const std::string text = out.str();
  EXPECT_NE(text.find("# nt-time: nccl-tests' time"), std::string::npos) << text;
  EXPECT_NE(text.find("#wrong    nt-time"), std::string::npos) << text;
  std::istringstream lines(text);
  std::string line, row;
  while (std::getline(lines, line))
    if (line.rfind("        1024", 0) == 0) row = line;
  EXPECT_NE(row.find("       0      10.50"), std::string::npos) << row;  // out-of-place: #wrong, nt-time
  EXPECT_EQ(row.substr(row.size() - 15), "         --  --")
      << row;  // in-place: none measured; no choice known
}

// One rank moves nothing between ranks (a broadcast's "busbw" would be a local copy's): the table
// shows the times and no bandwidth, no efficiency and no peaks, and says what to type instead; the
// results file keeps no efficiency.
TEST(TableWriter, AOneRankSweepPrintsNoBandwidthForBroadcast) {
  SweepOptions o;
  o.sizes = SizeRange{1024, 4096, 4.0, 0};
  o.collectives = {Collective::Broadcast};
  const Plan plan = make_plan(o, {Setting{"default", "nothing forced", {}, {}}}, PlanLimits{1, 1, 0});
  ASSERT_EQ(plan.nranks, 1);
  nlohmann::json provenance = fixed_provenance();
  provenance["ceiling"] = {{"gbps", 4.0}, {"path", "host memory copy"}, {"basis", "measured"}};
  std::ostringstream out;
  TableWriter table(out);
  table.begin(RunHeader{plan, BackendKind::Mpi, provenance});
  std::vector<CaseResult> results;
  for (const Case& c : plan.cases) {
    results.push_back(measured_case(c, "default", 1, std::vector<double>(20, 1e-7), 1e-7, 0));
    ASSERT_GT(results.back().busbw_gbps, 1.0);  // what a one-rank copy would claim
    table.case_finished(results.back());
  }
  table.end(RunSummary{});
  std::istringstream lines(out.str());
  std::string line;
  int rows = 0, notes = 0;
  while (std::getline(lines, line)) {
    EXPECT_EQ(line.find("peak busbw"), std::string::npos) << line;
    EXPECT_NE(line.rfind("# efficiency", 0), 0u) << line;
    EXPECT_EQ(line.find("eff%"), std::string::npos) << line;
    notes += line.rfind("# note: one rank", 0) == 0 ? 1 : 0;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::vector<std::string> f{std::istream_iterator<std::string>(fields), {}};
    ASSERT_GE(f.size(), 10u) << line;  // size count type redop root | time algbw busbw sprd #wrong
    EXPECT_EQ(f[6], "--") << line;
    EXPECT_EQ(f[7], "--") << line;
    ++rows;
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(notes, 1);
}

// The default setting's rows end with what NCCL chose; a reason for "not recorded" once per
// section; halves that differ get a note; other settings have no such column.
TEST(TableWriter, NcclDefaultRowsSayWhatNcclChose) {
  const Plan plan = synthetic_plan();
  std::ostringstream out;
  TableWriter table(out);
  table.begin(RunHeader{plan, BackendKind::Nccl, fixed_provenance()});
  std::vector<CaseResult> results = synthetic_results(plan);
  ASSERT_EQ(results[0].setting, "default");
  ASSERT_EQ(results[3].setting, "default");
  results[0].nccl_choice = recorded_choice("tree", "ll");
  results[1].nccl_choice = recorded_choice("tree", "ll128");
  results[2].nccl_choice = unrecorded_choice("no record: NCCL did not load commtune's tuner plugin");
  results[3].nccl_choice = results[2].nccl_choice;
  for (const auto& r : results) table.case_finished(r);
  table.end(RunSummary{});
  testing::expect_golden("table-nccl-chose.txt", out.str());
  const std::string text = out.str();
  EXPECT_NE(text.find("      --  TREE/LL\n"), std::string::npos)
      << text;  // the out-of-place half's choice ends the row
  EXPECT_NE(text.find("\n#   ^ in-place: nccl-chose TREE/LL128\n"), std::string::npos) << text;
  const std::string note =
      "#   ^ nccl-chose: not recorded (no record: NCCL did not load commtune's tuner plugin)";
  EXPECT_EQ(text.find(note), text.rfind(note)) << text;  // once
  EXPECT_NE(text.find(note), std::string::npos) << text;
}

TEST(TableWriter, MatchesGoldenOutput) {
  const Plan plan = synthetic_plan();
  std::ostringstream out;
  TableWriter table(out);
  nlohmann::json provenance = fixed_provenance();
  provenance["layout"] = {{"nranks", 4}, {"nhosts", 2}, {"local_sizes", {2, 2}}};
  table.begin(RunHeader{plan, BackendKind::Mpi, provenance});
  RunSummary summary;
  for (const auto& r : synthetic_results(plan)) {
    table.case_finished(r);
    r.measured() ? ++summary.measured : ++summary.failed;
    if (r.status == CaseStatus::WrongData) ++summary.wrong_data;
  }
  table.end(summary);
  testing::expect_golden("table.txt", out.str());
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class JsonWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::path(::testing::TempDir()) / ("commtune-json-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(JsonWriterTest, FileIsValidAfterEveryCaseAndCompleteAtTheEnd) {
  const Plan plan = synthetic_plan();
  const auto results = synthetic_results(plan);
  JsonResultsWriter writer((dir / "r.json").string());
  writer.begin(RunHeader{plan, BackendKind::Mpi, fixed_provenance()});
  EXPECT_EQ(results_from_json(nlohmann::json::parse(read_file(writer.path())), "r").cases.size(), 0u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    writer.case_finished(results[i]);
    const ResultsDocument doc = results_from_json(nlohmann::json::parse(read_file(writer.path())), "r");
    EXPECT_EQ(doc.cases.size(), i + 1);
    EXPECT_FALSE(doc.complete);
  }
  writer.end(RunSummary{});
  const ResultsDocument doc = load_results(writer.path());
  EXPECT_TRUE(doc.complete);
  EXPECT_EQ(doc.settings.size(), 2u);
  EXPECT_EQ(doc.backend, BackendKind::Mpi);
}

TEST_F(JsonWriterTest, InterruptedRunStaysValidAndSaysSo) {
  const Plan plan = synthetic_plan();
  JsonResultsWriter writer((dir / "r.json").string());
  writer.begin(RunHeader{plan, BackendKind::Mpi, fixed_provenance()});
  writer.case_finished(synthetic_results(plan)[0]);
  RunSummary summary;
  summary.complete = false;
  writer.end(summary);
  const ResultsDocument doc = load_results(writer.path());
  EXPECT_FALSE(doc.complete);
  EXPECT_EQ(doc.cases.size(), 1u);
}

TEST_F(JsonWriterTest, NeverOverwritesAnExistingFile) {
  fs::create_directories(dir);
  const std::string wanted = (dir / "r.json").string();
  std::ofstream(wanted) << "precious";
  JsonResultsWriter writer(wanted);
  EXPECT_EQ(writer.path(), (dir / "r.1.json").string());
  EXPECT_EQ(read_file(wanted), "precious");
  JsonResultsWriter second(wanted);
  EXPECT_EQ(second.path(), (dir / "r.2.json").string());
}

TEST_F(JsonWriterTest, MatchesGoldenOutput) {
  const Plan plan = synthetic_plan();
  JsonResultsWriter writer((dir / "r.json").string());
  writer.begin(RunHeader{plan, BackendKind::Mpi, fixed_provenance()});
  for (const auto& r : synthetic_results(plan)) writer.case_finished(r);
  writer.end(RunSummary{});
  testing::expect_golden("results.json", read_file(writer.path()));
}

TEST(ResultsJson, CaseRoundTripsThroughJson) {
  const Plan plan = synthetic_plan();
  for (const auto& r : synthetic_results(plan)) {
    const CaseResult back = case_from_json(to_json(r), "case");
    EXPECT_EQ(to_json(back), to_json(r));
  }
}

TEST(ResultsJson, BackendFiguresAreWrittenOnlyWhenMeasured) {
  const Plan plan = synthetic_plan();
  for (const auto& r : synthetic_results(plan)) {
    const nlohmann::json j = to_json(r);
    EXPECT_FALSE(j.contains("sample"));
    EXPECT_FALSE(j.contains("nccl_tests_us"));
    EXPECT_FALSE(case_from_json(j, "case").nccl_tests);
  }
}

TEST(ResultsJson, GraphSamplesAndTheNcclTestsFigureRoundTrip) {
  const Case c = synthetic_plan().cases.front();  // allreduce, 1024 B, 4 ranks
  SampleRun run;
  run.unit = SampleUnit::BatchMean;
  add_batch(run, 100, BatchTimes{{10e-6}, 1.2e-3, {}});
  add_batch(run, 100, BatchTimes{{12e-6}, 0.8e-3, {}});
  const CaseResult r = measured_case(c, "default", 4, run, 0);
  EXPECT_EQ(r.sample_unit, SampleUnit::BatchMean);
  ASSERT_TRUE(r.nccl_tests);
  EXPECT_DOUBLE_EQ(r.nccl_tests->time_us, 10.0);  // (1.2 + 0.8) ms / 200 iterations
  EXPECT_DOUBLE_EQ(r.nccl_tests->algbw_gbps, 1024 / 1e9 / 10e-6);
  EXPECT_DOUBLE_EQ(r.nccl_tests->busbw_gbps, r.nccl_tests->algbw_gbps * 2.0 * 3 / 4);
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["sample"], "batch-mean");
  EXPECT_DOUBLE_EQ(j["nccl_tests_us"].get<double>(), 10.0);
  const CaseResult back = case_from_json(j, "case");
  EXPECT_EQ(back.sample_unit, SampleUnit::BatchMean);
  EXPECT_EQ(to_json(back), j);
  nlohmann::json bad = j;
  bad["sample"] = "fortnight";
  EXPECT_THROW(case_from_json(bad, "case"), InputError);
}

TEST(ResultsJson, BusbwRecomputesFromMedianSizeAndRanks) {
  const Plan plan = synthetic_plan();
  for (const auto& r : synthetic_results(plan)) {
    if (!r.measured()) continue;
    const double expected = static_cast<double>(r.spec.bytes) / 1e9 / (r.time_us.median * 1e-6) * 2.0 * 3 / 4;
    EXPECT_NEAR(r.busbw_gbps, expected, 1e-12);
  }
}

TEST(ResultsJson, DamagedFilesAreInputErrorsNamingTheField) {
  EXPECT_THROW(results_from_json(nlohmann::json::parse(R"({"cases": []})"), "x"), InputError);
  EXPECT_THROW(results_from_json(nlohmann::json::parse(R"({"schema_version": 99, "cases": []})"), "x"),
               InputError);
  // Field by field: results_validation_test.cpp.
}

}  // namespace
}  // namespace commtune
