// The last arrival of an iteration, its tally per rank, the results field, and the straggler
// rule on synthetic jobs: healthy jobs (A/A) name no one in many trials, a planted straggler is
// named with its host, a consistent but negligible lag is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/errors.hpp"
#include "doctor/straggler_finding.hpp"
#include "measure/sampler.hpp"
#include "golden.hpp"
#include "writers/straggler_report.hpp"
#include "results/arrivals_json.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

TEST(LastArrival, TheRankWithTheLeastTimeInsideCameLastByTheGapToTheNext) {
  const std::vector<double> inside{5e-6, 2e-6, 9e-6, 3.5e-6};
  const LastArrival a = last_arrival(inside);
  EXPECT_EQ(a.rank, 1);
  EXPECT_NEAR(a.lag_s, 1.5e-6, 1e-12);
  EXPECT_EQ(last_arrival(std::vector<double>{1.0, 0.25}).rank, 1);
  EXPECT_DOUBLE_EQ(last_arrival(std::vector<double>{1.0, 0.25}).lag_s, 0.75);
  EXPECT_THROW(last_arrival(std::vector<double>{1.0}), Error);
}

TEST(ArrivalTally, CountsLastArrivalsAndTheTailAboveTheNinetiethPercentile) {
  std::vector<LastArrival> arrivals;
  for (int i = 0; i < 90; ++i) arrivals.push_back(LastArrival{i % 3, 1e-6});
  for (int i = 0; i < 10; ++i) arrivals.push_back(LastArrival{2, 50e-6 + i * 1e-6});
  const ArrivalTally t = tally_arrivals(arrivals, 3);
  EXPECT_EQ(t.iterations(), 100);
  EXPECT_EQ(t.last, (std::vector<std::int64_t>{30, 30, 40}));
  EXPECT_GT(t.tail_lag_us, 1.0);
  EXPECT_LT(t.tail_lag_us, 60.0);
  EXPECT_EQ(t.tail_last[0] + t.tail_last[1], 0);
  EXPECT_GE(t.tail_last[2], 9);
  EXPECT_GT(t.tail_median_lag_us[2], t.tail_lag_us);
  EXPECT_THROW(tally_arrivals({LastArrival{3, 0}}, 3), Error);
}

TEST(Binomial, UpperTail) {
  EXPECT_DOUBLE_EQ(binomial_upper_tail(0, 10, 0.3), 1.0);
  EXPECT_NEAR(binomial_upper_tail(3, 3, 0.5), 0.125, 1e-12);
  EXPECT_NEAR(binomial_upper_tail(1, 10, 0.1), 1 - std::pow(0.9, 10), 1e-12);
  EXPECT_NEAR(binomial_upper_tail(2, 4, 0.25), 1 - std::pow(0.75, 4) - 4 * 0.25 * std::pow(0.75, 3), 1e-12);
  EXPECT_EQ(binomial_upper_tail(5, 4, 0.25), 0.0);
}

// A job of `nranks`: every iteration, each rank arrives after a random delay (exponential noise,
// `mean_us`); `slow` (if >= 0) is held up by `extra_us` more with probability `odds`. The ranks
// leave together, rank r `exit_us * r` later than rank 0 (an algorithm's own exit order), so the
// time inside is the last arrival minus one's own, plus the work and that offset.
std::vector<CaseArrivals> synthetic_job(std::mt19937_64& rng, int nranks, int slow, double odds,
                                        double extra_us, double exit_us = 0, double mean_us = 5,
                                        double work_us = 20) {
  std::exponential_distribution<double> delay(1 / mean_us);
  std::uniform_real_distribution<double> coin(0, 1);
  std::vector<CaseArrivals> cases;
  const auto n = static_cast<std::size_t>(nranks);
  for (int c = 0; c < 4; ++c) {
    std::vector<double> arrive(n), inside;
    for (int i = 0; i < 300; ++i) {
      for (std::size_t r = 0; r < n; ++r)
        arrive[r] = delay(rng) + (static_cast<int>(r) == slow && coin(rng) < odds ? extra_us : 0);
      const double all_in = *std::max_element(arrive.begin(), arrive.end());
      for (std::size_t r = 0; r < n; ++r)
        inside.push_back((all_in - arrive[r] + work_us + exit_us * static_cast<double>(r)) * 1e-6);
    }
    cases.push_back(CaseArrivals{"allreduce " + std::to_string(c),
                                 work_us + 2 * mean_us,
                                 tally_arrivals(last_arrivals(inside, nranks), nranks),
                                 {}});
  }
  return cases;
}

TEST(LastArrivals, AnAlgorithmsOwnExitOrderIsNotALateArrival) {
  // Rank 0 always leaves 10 us before rank 1, rank 1 before rank 2...: raw, rank 0 would look late
  // every time; relative to each rank's median, the last arrival is whoever really came in last.
  std::mt19937_64 rng(5);
  int named = 0;
  for (int trial = 0; trial < 200; ++trial)
    named += static_cast<int>(find_stragglers(synthetic_job(rng, 4, -1, 0, 0, 10), {}).size());
  EXPECT_EQ(named, 0);
  const auto planted = find_stragglers(synthetic_job(rng, 4, 3, 0.05, 60, 10), {});
  ASSERT_EQ(planted.size(), 1u);
  EXPECT_EQ(planted[0].subject, "rank 3");
  EXPECT_THROW(last_arrivals(std::vector<double>(7, 1.0), 2), Error);
}

TEST(Stragglers, HealthyJobsNameNoOneInManyTrials) {
  std::mt19937_64 rng(13);
  int named = 0;
  for (int trial = 0; trial < 500; ++trial)
    for (int n : {2, 4, 8})
      named += static_cast<int>(find_stragglers(synthetic_job(rng, n, -1, 0, 0), {}).size());
  EXPECT_LE(named, 1) << "false stragglers in 1500 healthy jobs (the rule's alpha is 1e-3 per job)";
}

TEST(Stragglers, APlantedStragglerIsNamedWithItsHost) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> hosts{"n1", "n2", "n3", "n4"};
  int found = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const auto findings = find_stragglers(synthetic_job(rng, 4, 2, 0.05, 60), hosts);
    ASSERT_LE(findings.size(), 1u);
    if (findings.empty()) continue;
    EXPECT_EQ(findings[0].id, "straggler-arrivals");
    EXPECT_EQ(findings[0].subject, "rank 2 (host n3)");
    EXPECT_EQ(findings[0].severity, Severity::Info);
    EXPECT_NE(findings[0].evidence.find("binomial p"), std::string::npos);
    ++found;
  }
  EXPECT_GE(found, 95) << "power at a 5% chance per iteration of a 60 us delay (12x the noise)";
}

TEST(Stragglers, AConsistentButNegligibleLagIsNotNamed) {
  // Rank 1 always comes in last, 0.5 us after the others in 100 us iterations: real, but no straggler.
  std::vector<LastArrival> arrivals;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> lag(0.3e-6, 0.7e-6);
  for (int i = 0; i < 400; ++i) arrivals.push_back(LastArrival{1, lag(rng)});
  const CaseArrivals one{"allreduce 8 B", 100, tally_arrivals(arrivals, 4), {}};
  EXPECT_TRUE(find_stragglers({one, one, one}, {}).empty());
  // The same order with a lag of half the iteration time is named, in 3 cases, not in 2.
  for (auto& a : arrivals) a.lag_s *= 100;
  const CaseArrivals lagging{"allreduce 8 B", 100, tally_arrivals(arrivals, 4), {}};
  EXPECT_TRUE(find_stragglers({lagging, lagging}, {}).empty());
  // ... nor when it leads only 3 of 7 cases (a burst of contention, not the rank).
  std::vector<LastArrival> others;
  for (int i = 0; i < 400; ++i) others.push_back(LastArrival{i % 4, lag(rng) * (i % 4 == 1 ? 1 : 100)});
  const CaseArrivals healthy{"allreduce 8 B", 100, tally_arrivals(others, 4), {}};
  EXPECT_TRUE(find_stragglers({lagging, lagging, lagging, healthy, healthy, healthy, healthy}, {}).empty());
  const std::vector<CaseArrivals> late{lagging, lagging, lagging};
  ASSERT_EQ(find_stragglers(late, {}).size(), 1u);
  EXPECT_EQ(find_stragglers(late, {}).front().subject, "rank 1");
}

TEST(ArrivalsJson, RoundTripsAndRejectsWhatCannotBe) {
  std::vector<LastArrival> arrivals;
  for (int i = 0; i < 50; ++i) arrivals.push_back(LastArrival{i % 4, i * 1e-7});
  const ArrivalTally t = tally_arrivals(arrivals, 4);
  const nlohmann::json j = to_json(t);
  const ArrivalTally back = arrivals_from_json(j, "case", 4, 50);
  EXPECT_EQ(back.last, t.last);
  EXPECT_EQ(back.tail_last, t.tail_last);
  EXPECT_EQ(back.tail_median_lag_us, t.tail_median_lag_us);
  auto rejects = [&](nlohmann::json bad, int nranks, std::size_t samples, const std::string& needle) {
    try {
      arrivals_from_json(bad, "case", nranks, samples);
      ADD_FAILURE() << "accepted " << bad.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  rejects(j, 4, 51, "case.last: ");
  rejects(j, 3, 50, "case.last");
  rejects(j, 1, 50, "1 rank");
  nlohmann::json more_tail = j;
  more_tail["tail_last"][0] = t.last[0] + 1;
  rejects(more_tail, 4, 50, "case.tail_last[0]");
  nlohmann::json negative = j;
  negative["last"][1] = -1;
  rejects(negative, 4, 50, "case.last[1]");
  nlohmann::json lag_without_tail = j;
  lag_without_tail["tail_last"] = {0, 0, 0, 0};
  rejects(lag_without_tail, 4, 50, "tail_median_lag_us");
  nlohmann::json missing = j;
  missing.erase("tail_lag_us");
  rejects(missing, 4, 50, "tail_lag_us");
  rejects(nlohmann::json::array(), 4, 50, "case");
}

// Deterministic measured cases of 4 ranks: rank 3 comes in 400 us late at every 10th iteration
// and runs 20% of the time against about 40% (a planted straggler) or neither (healthy); the
// others' order rotates.
std::vector<CaseResult> deterministic_cases(bool straggler) {
  std::vector<CaseResult> out;
  for (std::uint64_t bytes : {1024u, 8192u, 65536u}) {
    Case c;
    c.collective = Collective::AllReduce;
    c.bytes = bytes;
    c.count = bytes / 4;
    c.root = -1;
    SampleRun run;
    for (int i = 0; i < 200; ++i) {
      run.samples.push_back((100 + i % 7) * 1e-6);
      for (int r = 0; r < 4; ++r) {
        const double late = r == 3 && straggler && i % 10 == 0 ? 400 : (r == i % 4 ? 3 : 0);
        run.inside_s.push_back((100 + (i % 5) - late) * 1e-6);
      }
    }
    run.iterations = run.samples.size();
    run.cpu_s = {0.04, 0.041, 0.039, straggler ? 0.02 : 0.04};
    run.wall_s.assign(4, 0.1);
    out.push_back(measured_case(c, "default", 4, run, 0));
  }
  return out;
}

std::string report_of(const std::vector<CaseResult>& cases) {
  std::ostringstream out;
  StragglerReport report(out);
  const Plan plan;
  nlohmann::json provenance{{"layout", {{"ranks", nlohmann::json::array()}}}};
  for (int r = 0; r < 4; ++r)
    provenance["layout"]["ranks"].push_back({{"rank", r}, {"host", "n" + std::to_string(r + 1)}});
  report.begin(RunHeader{plan, BackendKind::Mpi, provenance});
  for (const auto& c : cases) report.case_finished(c);
  report.end(RunSummary{});
  return out.str();
}

TEST(StragglerReport, PrintsThePlantedStragglerAfterTheTable) {
  testing::expect_golden("straggler.txt", report_of(deterministic_cases(true)));
}

TEST(StragglerReport, PrintsNothingForAHealthyJob) { EXPECT_EQ(report_of(deterministic_cases(false)), ""); }

TEST(ArrivalsJson, ACaseKeepsItsArrivalsThroughTheResultsFile) {
  for (const auto& c : deterministic_cases(true)) {
    ASSERT_TRUE(c.arrivals);
    EXPECT_EQ(c.arrivals->iterations(), 200);
    const CaseResult back = case_from_json(to_json(c), "case");
    ASSERT_TRUE(back.arrivals);
    EXPECT_EQ(back.arrivals->last, c.arrivals->last);
    EXPECT_EQ(back.arrivals->tail_last, c.arrivals->tail_last);
    EXPECT_EQ(back.arrivals->tail_median_lag_us, c.arrivals->tail_median_lag_us);
  }
}

// The CPU shares are the straggler finding's evidence: they survive the results file, and the
// finding made from the read-back cases is the one made from the measured ones.
TEST(CpuShareJson, ACaseKeepsItsCpuSharesThroughTheResultsFile) {
  std::vector<CaseResult> back;
  for (const auto& c : deterministic_cases(true)) {
    ASSERT_EQ(c.cpu_share.size(), 4u);
    const nlohmann::json j = to_json(c);
    ASSERT_TRUE(j.contains("cpu_share"));
    back.push_back(case_from_json(j, "case"));
    EXPECT_EQ(back.back().cpu_share, c.cpu_share);
  }
  EXPECT_EQ(report_of(back), report_of(deterministic_cases(true)));
  EXPECT_NE(report_of(back).find("rank 3"), std::string::npos) << report_of(back);
  // A case without shares writes none, and reads back without them.
  CaseResult none = deterministic_cases(false).front();
  none.cpu_share.clear();
  EXPECT_FALSE(to_json(none).contains("cpu_share"));
  EXPECT_TRUE(case_from_json(to_json(none), "case").cpu_share.empty());
}

}  // namespace
}  // namespace commtune

namespace commtune {
namespace {

TEST(StarvedRank, TheLeastShareIsStarvedOnlyBeyondTheMarginAndTheOthersSpread) {
  EXPECT_EQ(starved_rank({0.40, 0.42, 0.20, 0.38}), std::optional<std::size_t>{2});
  EXPECT_EQ(starved_rank({0.40, 0.42, 0.35, 0.38}), std::nullopt);  // 10% under the others: within the margin
  EXPECT_EQ(starved_rank({0.20, 0.60, 0.25, 0.45}), std::nullopt);  // 56% under, but the others spread 78%
  EXPECT_EQ(starved_rank({0.9, 0.3}), std::optional<std::size_t>{1});
  EXPECT_EQ(starved_rank({0.5}), std::nullopt);
  EXPECT_EQ(starved_rank({0.0, 0.0, 0.0}), std::nullopt);
}

// `cases` cases of `nranks` ranks whose CPU shares scatter around `share` (normal, `sd`); rank
// `slow` (if >= 0) gets `slow_share` instead in the cases where `starved(c)` holds.
template <typename Starved>
std::vector<CaseArrivals> shares_job(std::mt19937_64& rng, int nranks, int cases, int slow, double slow_share,
                                     Starved starved, double share = 0.38, double sd = 0.03) {
  std::normal_distribution<double> noise(0, sd);
  std::vector<CaseArrivals> out;
  for (int c = 0; c < cases; ++c) {
    CaseArrivals one{"allreduce " + std::to_string(c), 150, tally_arrivals({}, nranks), {}};
    for (int r = 0; r < nranks; ++r)
      one.cpu_share.push_back(
          std::clamp((r == slow && starved(c) ? slow_share : share) + noise(rng), 0.0, 1.0));
    out.push_back(one);
  }
  return out;
}

TEST(Stragglers, HealthySharesNameNoOneInManyTrials) {
  // Ranks that share the CPU alike (a 3-point spread around 38%), and one burst: a random rank at
  // half its share in one case of five (a build starting next to it). Measured on the emulated
  // cluster, healthy: 25-48%, one case at 14%.
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<int> who(0, 3), when(0, 4);
  int named = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const int burst = when(rng);
    named += static_cast<int>(
        find_stragglers(shares_job(rng, 4, 5, who(rng), 0.19, [&](int c) { return c == burst; }), {}).size());
    named +=
        static_cast<int>(find_stragglers(shares_job(rng, 8, 5, -1, 0, [](int) { return false; }), {}).size());
  }
  EXPECT_LE(named, 2) << "false stragglers in 2000 healthy jobs (the target: under 1 in 1000)";
}

TEST(Stragglers, ARankStarvedOfTheCpuIsNamed) {
  // Rank 2 under a 20% CPU limit while the others get 38% (measured: 14-23% against 28-46%).
  std::mt19937_64 rng(19);
  const std::vector<std::string> hosts{"n1", "n2", "n3", "n4"};
  int found = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const auto findings = find_stragglers(shares_job(rng, 4, 5, 2, 0.20, [](int) { return true; }), hosts);
    ASSERT_LE(findings.size(), 1u);
    if (findings.empty()) continue;
    EXPECT_EQ(findings[0].id, "straggler");
    EXPECT_EQ(findings[0].subject, "rank 2 (host n3)");
    EXPECT_EQ(findings[0].severity,
              Severity::Warning);  // its rates hold on the emulated cluster (docs/doctor.md)
    EXPECT_NE(findings[0].evidence.find("on the CPU for"), std::string::npos) << findings[0].evidence;
    ++found;
  }
  EXPECT_GE(found, 990);
  // Starved in 2 of 5 cases (a burst, not the rank): not named; in 3 of 5: named.
  EXPECT_TRUE(find_stragglers(shares_job(
                                  rng, 4, 5, 1, 0.15, [](int c) { return c < 2; }, 0.38, 0),
                              {})
                  .empty());
  const auto three = find_stragglers(shares_job(
                                         rng, 4, 5, 1, 0.15, [](int c) { return c < 3; }, 0.38, 0),
                                     {});
  ASSERT_EQ(three.size(), 1u);
  EXPECT_EQ(three[0].subject, "rank 1");
  EXPECT_NE(three[0].evidence.find("in 3 of 5 cases"), std::string::npos) << three[0].evidence;
}

TEST(SampleRun, KeepsEachRanksCpuShareWhileEveryBatchMeasuresIt) {
  SampleRun run;
  add_batch(run, 2, BatchTimes{{1e-6, 1e-6}, std::nullopt, {}, {0.2, 0.1}, {0.5, 0.5}});
  add_batch(run, 2, BatchTimes{{1e-6, 1e-6}, std::nullopt, {}, {0.2, 0.05}, {0.5, 0.5}});
  ASSERT_EQ(run.cpu_share().size(), 2u);
  EXPECT_NEAR(run.cpu_share()[0], 0.4, 1e-12);
  EXPECT_NEAR(run.cpu_share()[1], 0.15, 1e-12);
  add_batch(run, 2, BatchTimes{{1e-6, 1e-6}, std::nullopt, {}, {}, {}});  // a batch without: dropped for good
  EXPECT_TRUE(run.cpu_share().empty());
  add_batch(run, 2, BatchTimes{{1e-6, 1e-6}, std::nullopt, {}, {0.2, 0.1}, {0.5, 0.5}});
  EXPECT_TRUE(run.cpu_share().empty());
}

}  // namespace
}  // namespace commtune
