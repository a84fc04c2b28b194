// Golden outputs of every export format, from the recorded NCCL fixture and from a recorded
// Open MPI run (tests/fixtures). Also checks the tuner CSV against the example plugin's rules
// and that the shell file is safe to source.
#include <gtest/gtest.h>

#include <sstream>

#include "exports/export_writer.hpp"
#include "writers/tune_summary_writer.hpp"
#include "results/results_document.hpp"
#include "tune/export_plan.hpp"
#include "knobs/nccl_list_syntax.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

using testing::expect_golden;
using testing::source_path;

ExportPlan plan_of(const std::string& fixture) {
  return make_export_plan(tune(load_results(source_path("tests/fixtures/" + fixture)), TuneOptions{}));
}

std::string render(const ExportWriter& writer, const ExportPlan& plan) {
  std::ostringstream out;
  writer.write(plan, out);
  return out.str();
}

void check_goldens(const std::string& fixture, const std::string& prefix) {
  const ExportPlan plan = plan_of(fixture);
  for (const auto& writer : make_export_writers()) {
    if (!writer->applies_to(plan.backend)) continue;
    SCOPED_TRACE(writer->format());
    expect_golden("tune/" + prefix + "." + writer->file_name(plan.backend), render(*writer, plan));
  }
}

TEST(ExportGolden, EveryFormatFromTheNcclFixture) { check_goldens("nccl-results-h100x16.json", "nccl"); }

TEST(ExportGolden, EveryFormatFromTheOpenMpiFixture) { check_goldens("mpi-results-algorithms.json", "mpi"); }

TEST(ExportGolden, TuneSummaryOfTheNcclFixture) {
  std::ostringstream out;
  write_tune_summary(
      tune(load_results(source_path("tests/fixtures/nccl-results-h100x16.json")), TuneOptions{}), out);
  expect_golden("tune/nccl.summary.txt", out.str());
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string f;
  while (std::getline(in, f, ',')) out.push_back(f);
  return out;
}

bool all_lowercase(const std::string& s) {
  return std::none_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

TEST(NcclTunerCsv, FollowsTheExamplePluginFormat) {
  const ExportPlan plan = plan_of("nccl-results-h100x16.json");
  std::ostringstream out;
  for (const auto& w : make_export_writers())
    if (w->format() == "nccl-tuner") w->write(plan, out);
  std::stringstream lines(out.str());
  std::string line, previous_collective;
  std::uint64_t previous_max = 0;
  int rows = 0;
  const std::vector<std::string> collectives{"broadcast", "reduce", "allgather", "reducescatter",
                                             "allreduce"};
  const std::vector<std::string> algorithms{"tree",      "ring", "collnet_direct", "collnet_chain", "nvls",
                                            "nvls_tree", "pat"};
  const std::vector<std::string> protocols{"ll", "ll128", "simple"};
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = fields(line);
    ASSERT_GE(f.size(), 8u) << line;
    ASSERT_LE(f.size(), 10u) << line;
    EXPECT_TRUE(all_lowercase(line)) << line;
    EXPECT_NE(std::find(collectives.begin(), collectives.end(), f[0]), collectives.end()) << line;
    EXPECT_NE(std::find(algorithms.begin(), algorithms.end(), f[3]), algorithms.end()) << line;
    EXPECT_NE(std::find(protocols.begin(), protocols.end(), f[4]), protocols.end()) << line;
    const std::uint64_t lo = std::stoull(f[1]), hi = std::stoull(f[2]);
    EXPECT_LE(lo, hi) << line;
    if (f[0] == previous_collective) {
      EXPECT_GT(lo, previous_max) << "buckets overlap or are out of order: " << line;
    }
    EXPECT_EQ(f[6], "2");   // nNodes filled
    EXPECT_EQ(f[7], "16");  // nRanks filled
    previous_collective = f[0];
    previous_max = hi;
    ++rows;
  }
  EXPECT_EQ(rows, 3);  // allreduce tree/ll merged, allreduce ring/simple merged, allgather ring/simple
}

TEST(NcclTunerCsv, BucketEdgesLieBetweenMeasuredSizes) {
  EXPECT_EQ(bucket_edge(16384, 65536), 32768u);
  EXPECT_EQ(bucket_edge(8, 9), 8u);
  const ExportPlan plan = plan_of("nccl-results-h100x16.json");
  ASSERT_EQ(plan.tuner_rows.size(), 3u);
  EXPECT_EQ(plan.tuner_rows[0].min_bytes, 1024u);
  EXPECT_EQ(plan.tuner_rows[0].max_bytes, 32768u);
  EXPECT_EQ(plan.tuner_rows[1].min_bytes, 32769u);
  EXPECT_EQ(plan.tuner_rows[1].max_bytes, 4194304u);
}

TEST(NcclEnvExport, LeavesNcclAlgoAndProtoToTheTunerPluginByDefault) {
  const ExportPlan plan = plan_of("nccl-results-h100x16.json");
  for (const auto& e : plan.env) EXPECT_TRUE(e.name != "NCCL_ALGO" && e.name != "NCCL_PROTO") << e.name;
  EXPECT_TRUE(plan.warnings.empty());
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_NE(plan.notes.back().find("--nccl-algo-env"), std::string::npos);
}

TEST(NcclEnvExport, UsesOnlyValidNcclAlgoAndProtoSyntax) {
  ExportOptions options;
  options.nccl_algo_proto_env = true;
  const ExportPlan plan = make_export_plan(
      tune(load_results(source_path("tests/fixtures/nccl-results-h100x16.json")), TuneOptions{}), options);
  // On request, with NVIDIA's warning in every env file's header.
  ASSERT_EQ(plan.warnings.size(), 1u);
  EXPECT_NE(plan.warnings[0].find("should not be used in production"), std::string::npos);
  for (const auto& writer : make_export_writers()) {
    if (!writer->applies_to(plan.backend) || writer->format() == "nccl-tuner") continue;
    EXPECT_NE(render(*writer, plan).find("should not be used in production"), std::string::npos)
        << writer->format();
  }
  int checked = 0;
  for (const auto& e : plan.env) {
    if (e.name == "NCCL_ALGO") {
      EXPECT_NO_THROW(parse_nccl_list(e.value, NcclListKind::Algorithm)) << e.value;
    }
    if (e.name == "NCCL_PROTO") {
      EXPECT_NO_THROW(parse_nccl_list(e.value, NcclListKind::Protocol)) << e.value;
    }
    checked += e.name == "NCCL_ALGO" || e.name == "NCCL_PROTO";
  }
  EXPECT_EQ(checked, 2);
}

TEST(EnvExport, RefusesARecommendationWithAnUnsafeValue) {
  Recommendation rec =
      tune(load_results(source_path("tests/fixtures/nccl-results-h100x16.json")), TuneOptions{});
  for (auto& s : rec.settings)
    if (s.name == "ring-simple") s.knobs["NCCL_NET"] = "IB$(touch /tmp/pwned)";
  EXPECT_ANY_THROW(make_export_plan(rec));
}

}  // namespace
}  // namespace commtune
