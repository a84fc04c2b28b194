// compare on the recorded NCCL fixture against a doctored copy (a new NCCL version, one case 30%
// slower, one 10% faster, one failing): verdicts, exit decision and golden outputs.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/errors.hpp"
#include "writers/compare_writers.hpp"
#include "tune/case_runs.hpp"
#include "tune/regression_compare.hpp"
#include "tune_test_support.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

using testing::expect_golden;
using testing::source_path;

// Every time statistic scaled alike, so the run stays one a results file can hold (min <= p5 <=
// median <= p95 <= max): compare's JSON writes them and `commtune report` reads them back.
void scale(CaseResult& r, double factor) {
  SampleStats& t = r.time_us;
  for (double* v :
       {&t.median, &t.median_ci_low, &t.median_ci_high, &t.mean, &t.min, &t.max, &t.p5, &t.p95, &t.stddev})
    *v *= factor;
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
    if (x.setting == "default" && x.collective == c && x.bytes == bytes &&
        x.placement == Placement::OutOfPlace)
      return x;
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
  EXPECT_EQ(find(report, Collective::AllReduce, 4194304).verdict,
            Verdict::Slower);  // +30%, interval from +28.7%
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
  const auto keep = [](const CaseResult& r) {
    return r.setting == "default" && r.spec.bytes != 16384 && r.spec.bytes != 262144;
  };
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
  const auto keep = [](const CaseResult& r) {
    return r.setting == "default" && r.spec.bytes != 16384 && r.spec.bytes != 262144;
  };
  for (ResultsDocument* d : {&small, &small_current}) {
    std::erase_if(d->cases, [&](const CaseResult& r) { return !keep(r); });
    for (auto& r : d->cases)
      for (double f : {0.99, 1.0, 1.01, 1.02}) r.run_medians_us.push_back(r.time_us.median * f);
  }
  const CompareReport report =
      compare_results(small, small_current, CompareOptions{0.05, 0});  // launch noise known: 0
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

// Synthetic launches (docs/compare.md): each launch scales every case by its own factor
// (lognormal, `sigma`; with `outliers`, one launch in six twice as slow, as the 2-core VM's
// launches whose ranks shared cores worse), each of its 4 runs adds 10% noise. A CI gate of 4
// launches a side (files) is judged on launches: each file one figure per case, its runs' median.
struct LaunchModel {
  double sigma = 0.15;
  bool outliers = false;
  std::mt19937_64 rng{2026};
  ResultsDocument launch(const ResultsDocument& base, double shift) {
    std::lognormal_distribution<double> launch_factor(0, sigma), run_noise(0, 0.1);
    std::uniform_int_distribution<int> one_in(1, 6);
    const double factor = launch_factor(rng) * (outliers && one_in(rng) == 1 ? 2 : 1) * shift;
    ResultsDocument d = base;
    for (auto& r : d.cases) {
      r.run_medians_us.clear();
      for (int k = 0; k < 4; ++k) r.run_medians_us.push_back(r.time_us.median * factor * run_noise(rng));
    }
    return d;
  }
};

ResultsDocument few_cases() {
  ResultsDocument base = load_results(source_path("tests/fixtures/nccl-results-h100x16.json"));
  std::erase_if(base.cases, [](const CaseResult& r) {
    return r.setting != "default" || r.spec.collective != Collective::AllReduce ||
           r.spec.placement != Placement::OutOfPlace;
  });
  return base;
}

int gate_exits(LaunchModel& model, const ResultsDocument& base, double shift, bool every_case) {
  std::vector<ResultsDocument> b, c;
  for (int i = 0; i < 4; ++i) b.push_back(model.launch(base, 1)), c.push_back(model.launch(base, shift));
  std::vector<const ResultsDocument*> bp, cp;
  std::vector<std::string> names;
  for (int i = 0; i < 4; ++i)
    bp.push_back(&b[i]), cp.push_back(&c[i]), names.push_back("f" + std::to_string(i));
  const CompareReport report = compare_results(bp, names, cp, names, CompareOptions{});
  EXPECT_FALSE(report.any_widened());  // 4 + 4 launches: C(8, 4) = 70 orderings, no widening
  if (!every_case) return report.regression() ? 1 : 0;
  return report.count(Verdict::Slower) == report.cases.size() ? 1 : 0;
}

TEST(Compare, AGateOfFourLaunchesASideHoldsItsFalseAlarmsUnderLaunchNoise) {
  LaunchModel model{0.3,
                    true};  // harsher than measured: p95 of the launch factor about +-80%, and 2x launches
  const ResultsDocument base = few_cases();
  ASSERT_GE(base.cases.size(), 5u);
  int alarms = 0;
  for (int trial = 0; trial < 100; ++trial) alarms += gate_exits(model, base, 1.0, false);
  EXPECT_LE(alarms, 5) << "of 100 A/A gates of 4 + 4 launches";
}

TEST(Compare, AGateOfFourLaunchesASideFindsATwoAndAHalfTimesSlowdownEverywhere) {
  LaunchModel model{0.15, false};  // launches within about +-30% (p95) of each other
  const ResultsDocument base = few_cases();
  int found = 0;
  for (int trial = 0; trial < 100; ++trial) found += gate_exits(model, base, 2.6, true);
  EXPECT_GE(found, 95) << "of 100 gates of 4 + 4 launches, every size SLOWER";
}

// Several files a side count each file once per case: its runs' median, one pass per file.
TEST(Compare, SeveralFilesASideAreOneFigurePerLaunch) {
  const ResultsDocument base = few_cases();
  ResultsDocument a = base, b = base;
  for (auto& r : a.cases) r.run_medians_us = {1.0, 2.0, 9.0};
  for (auto& r : b.cases) r.run_medians_us = {3.0, 4.0};
  const Side two = gather_side({&a, &b}, {"a", "b"}, TimeBasis::Median);
  EXPECT_EQ(two.passes, 2u);
  const SideCase& one = two.cases.begin()->second;
  EXPECT_EQ(one.runs.run_us, (std::vector<double>{2.0, 3.5}));
  EXPECT_EQ(one.runs.pass, (std::vector<std::size_t>{0, 1}));
  const Side single = gather_side({&a}, {"a"}, TimeBasis::Median);  // one file: every run, one pass each
  EXPECT_EQ(single.passes, 3u);
  EXPECT_EQ(single.cases.begin()->second.runs.run_us, (std::vector<double>{1.0, 2.0, 9.0}));
}

}  // namespace
}  // namespace commtune
