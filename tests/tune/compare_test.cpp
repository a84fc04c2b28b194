// compare on the recorded NCCL fixture against a doctored copy (a new NCCL version, one case 30%
// slower, one 10% faster, one failing): verdicts, exit decision and golden outputs.
#include <gtest/gtest.h>

#include <sstream>

#include "core/errors.hpp"
#include "report/compare_writers.hpp"
#include "tune/regression_compare.hpp"
#include "tune_test_support.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

using testing::expect_golden;
using testing::source_path;

void scale(CaseResult& r, double factor) {
  r.time_us.median *= factor;
  r.time_us.median_ci_low *= factor;
  r.time_us.median_ci_high *= factor;
}

ResultsDocument current_run(const ResultsDocument& base) {
  ResultsDocument cur = base;
  cur.provenance["nccl"]["version"] = "2.29.1";
  for (auto& r : cur.cases) {
    if (r.setting != "default" || r.spec.placement != Placement::OutOfPlace) continue;
    if (r.spec.collective == Collective::AllReduce && r.spec.bytes == 4194304) scale(r, 1.3);
    if (r.spec.collective == Collective::AllGather && r.spec.bytes == 65536) scale(r, 0.9);
    if (r.spec.collective == Collective::AllGather && r.spec.bytes == 1024) {
      r.status = CaseStatus::Failed;
      r.reason = "ncclInternalError";
    }
  }
  return cur;
}

const CaseComparison& find(const CompareReport& report, Collective c, std::uint64_t bytes) {
  for (const auto& x : report.cases)
    if (x.setting == "default" && x.collective == c && x.bytes == bytes && x.placement == Placement::OutOfPlace) return x;
  throw std::runtime_error("missing");
}

TEST(Compare, SingleRunsAreWidenedByTheDefaultNoise) {
  // One run a side: +30% lies inside the default between-run noise, so it is AMBIGUOUS, not SLOWER;
  // a case that fails now is SLOWER all the same.
  const ResultsDocument base = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  const CompareReport report = compare_results(base, current_run(base), CompareOptions{0.05});
  EXPECT_TRUE(report.any_widened());
  EXPECT_EQ(find(report, Collective::AllReduce, 4194304).verdict, Verdict::Ambiguous);
  EXPECT_NEAR(find(report, Collective::AllReduce, 4194304).change, 0.3, 1e-9);
  EXPECT_EQ(find(report, Collective::AllGather, 1024).verdict, Verdict::Slower);
  EXPECT_EQ(report.count(Verdict::Slower), 1u);
  EXPECT_EQ(find(report, Collective::AllReduce, 1024).verdict, Verdict::Same);
}

TEST(Compare, VerdictsFollowIntervalsThresholdAndTheLoneSizeRule) {
  // Without the default noise (--run-noise 0) the within-run intervals decide, as before; a lone
  // size keeps SLOWER (or FASTER) only when its interval clears 3x the threshold.
  const ResultsDocument base = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  const CompareReport report = compare_results(base, current_run(base), CompareOptions{0.05, 0});
  EXPECT_EQ(find(report, Collective::AllReduce, 4194304).verdict, Verdict::Slower);  // +30%, interval from +28.7%
  EXPECT_NEAR(find(report, Collective::AllReduce, 4194304).change, 0.3, 1e-9);
  EXPECT_EQ(find(report, Collective::AllGather, 65536).verdict, Verdict::Ambiguous);  // -10%, lone
  EXPECT_NE(find(report, Collective::AllGather, 65536).note.find("lone size"), std::string::npos);
  EXPECT_EQ(find(report, Collective::AllGather, 1024).verdict, Verdict::Slower);
  EXPECT_EQ(find(report, Collective::AllReduce, 1024).verdict, Verdict::Same);
  EXPECT_TRUE(report.regression());
  ASSERT_FALSE(report.provenance.empty());
  EXPECT_EQ(report.provenance.front().field, "nccl/version");
}

TEST(Compare, ARunAgainstItselfIsAllSame) {
  const ResultsDocument base = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  const CompareReport report = compare_results(base, base, CompareOptions{0.05});
  EXPECT_FALSE(report.regression());
  EXPECT_EQ(report.count(Verdict::Same), report.cases.size());
  EXPECT_TRUE(report.provenance.empty());
}

TEST(Compare, IncompatibleRunsAreAnInputError) {
  const ResultsDocument nccl = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  const ResultsDocument mpi = load_results(source_path("tests/fixtures/mpi-results-algorithms.json"));
  EXPECT_THROW(compare_results(nccl, mpi, CompareOptions{0.05}), InputError);
  ResultsDocument other_ranks = nccl;
  for (auto& r : other_ranks.cases) r.nranks = 8;
  EXPECT_THROW(compare_results(nccl, other_ranks, CompareOptions{0.05}), InputError);
}

TEST(Compare, GoldenMarkdownAndJson) {
  const ResultsDocument base = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  ResultsDocument small = base, small_current = current_run(base);
  const auto keep = [](const CaseResult& r) { return r.setting == "default" && r.spec.bytes != 16384 && r.spec.bytes != 262144; };
  std::erase_if(small.cases, [&](const CaseResult& r) { return !keep(r); });
  std::erase_if(small_current.cases, [&](const CaseResult& r) { return !keep(r); });
  const CompareReport report = compare_results(small, small_current, CompareOptions{0.05, 0});
  std::ostringstream md, js;
  write_compare_markdown(report, md);
  write_compare_json(report, js);
  expect_golden("tune/compare.md", md.str());
  expect_golden("tune/compare.json", js.str());
}

TEST(Compare, GoldenMarkdownAndJsonOfRepeatedRuns) {
  // Four runs a side (each case's median x 0.99, 1, 1.01, 1.02) and --run-noise 0 (one launch a
  // side, its conditions known not to move): judged on the runs' spread, with the whole
  // comparison's permutation test over the 4 + 4 passes in the report.
  const ResultsDocument base = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  ResultsDocument small = base, small_current = current_run(base);
  const auto keep = [](const CaseResult& r) { return r.setting == "default" && r.spec.bytes != 16384 && r.spec.bytes != 262144; };
  for (ResultsDocument* d : {&small, &small_current}) {
    std::erase_if(d->cases, [&](const CaseResult& r) { return !keep(r); });
    for (auto& r : d->cases)
      for (double f : {0.99, 1.0, 1.01, 1.02}) r.run_medians_us.push_back(r.time_us.median * f);
  }
  const CompareReport report = compare_results(small, small_current, CompareOptions{0.05, 0});  // launch noise known: 0
  EXPECT_FALSE(report.any_widened());
  ASSERT_TRUE(report.significance.has_value());
  EXPECT_EQ(report.significance->labellings, 70u);
  EXPECT_EQ(find(report, Collective::AllReduce, 4194304).verdict, Verdict::Slower);
  std::ostringstream md, js;
  write_compare_markdown(report, md);
  write_compare_json(report, js);
  expect_golden("tune/compare-repeated.md", md.str());
  expect_golden("tune/compare-repeated.json", js.str());
}

}  // namespace
}  // namespace commtune
