// The re-measure's pruning: a finalist is measured no more only once it cannot be confirmed, so
// the tuner's verdict is the same with the rounds it skips as without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "measure/decision.hpp"
#include "measure/statistics.hpp"
#include "tune/confirm_pruning.hpp"
#include "tune/tune_test_support.hpp"
#include "tune/tuner.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;
using testing::synthetic_document;

constexpr std::uint64_t kPrunedBytes = 4096;
const SizeKey kPrunedSize{Collective::AllReduce, kPrunedBytes};

// Both placements of `setting` with these round medians (us).
void add_round_medians(std::vector<CaseResult>& cases, const std::string& setting,
                       const std::vector<double>& out_medians, const std::vector<double>& in_medians) {
  cases.push_back(
      synthetic_case(setting, Collective::AllReduce, kPrunedBytes, Placement::OutOfPlace, out_medians));
  cases.push_back(
      synthetic_case(setting, Collective::AllReduce, kPrunedBytes, Placement::InPlace, in_medians));
}

// A second size, out of place only, whose default's round failed and where `setting` measured
// `median_us`; returns its key.
SizeKey add_size_whose_default_failed(std::vector<CaseResult>& cases, const std::string& setting,
                                      double median_us) {
  CaseResult failed =
      synthetic_case("default", Collective::AllReduce, 2 * kPrunedBytes, Placement::OutOfPlace, {100});
  failed.status = CaseStatus::Failed;
  cases.push_back(failed);
  cases.push_back(
      synthetic_case(setting, Collective::AllReduce, 2 * kPrunedBytes, Placement::OutOfPlace, {median_us}));
  return SizeKey{Collective::AllReduce, 2 * kPrunedBytes};
}

TEST(ConfirmPruning, AFinalistWithARoundMedianAtOrAboveTheDefaultsIsMeasuredNoMore) {
  std::vector<CaseResult> folded;
  add_round_medians(folded, "default", {100, 104}, {100, 101});
  add_round_medians(folded, "fast", {80, 82},
                    {79, 81});  // every round below every default round: still possible
  add_round_medians(folded, "close", {90, 100},
                    {90, 91});  // 100 is at the default's 100 out of place: never confirmed
  const std::vector<Finalists> finalists{{kPrunedSize, {"fast", "close"}}};
  const auto kept = confirmable_finalists(finalists, folded, 5, DecisionRule{});
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.front().settings, std::vector<std::string>{"fast"});
}

TEST(ConfirmPruning, ASizeLeftWithNoFinalistIsDroppedAndAFailedRoundEndsIt) {
  std::vector<CaseResult> folded;
  add_round_medians(folded, "default", {100}, {100});
  add_round_medians(folded, "slow", {120}, {95});
  const SizeKey other = add_size_whose_default_failed(folded, "fast", 50);
  EXPECT_TRUE(
      confirmable_finalists({{kPrunedSize, {"slow"}}, {other, {"fast"}}}, folded, 5, DecisionRule{}).empty());
}

TEST(ConfirmPruning, NothingIsPrunedWhereTheFinalIntervalIsNotTheRange) {
  std::vector<CaseResult> folded;
  add_round_medians(folded, "default", {100}, {100});
  add_round_medians(folded, "close", {101}, {101});
  const std::vector<Finalists> finalists{{kPrunedSize, {"close"}}};
  EXPECT_EQ(confirmable_finalists(finalists, folded, 5, DecisionRule{}).size(), 0u);
  // 20 rounds: the 95% interval of the median is an inner pair of ranks, not the range, so no
  // round median is decisive early.
  EXPECT_EQ(confirmable_finalists(finalists, folded, 20, DecisionRule{}).size(), 1u);
}

// 400 synthetic re-measures (5 rounds, two finalists against the default, gains from -3% to
// +12%, round noise 3%): the verdicts with the pruned rounds skipped equal the full ones'.
TEST(ConfirmPruning, TheTunersVerdictIsTheSameWithThePrunedRoundsSkipped) {
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<double> gain(-0.03, 0.12);
  std::lognormal_distribution<double> noise(0.0, 0.03);
  const std::vector<Setting> settings{{"default", "", {}, {}}, {"a", "", {}, {}}, {"b", "", {}, {}}};
  std::vector<CaseResult> sweep_cases;
  add_round_medians(sweep_cases, "default", std::vector<double>(20, 100), std::vector<double>(20, 100));
  add_round_medians(sweep_cases, "a", std::vector<double>(20, 80), std::vector<double>(20, 80));
  add_round_medians(sweep_cases, "b", std::vector<double>(20, 85), std::vector<double>(20, 85));
  const ResultsDocument sweep = synthetic_document("mpi", settings, sweep_cases);
  int pruned_some = 0, confirmed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const double ga = gain(rng), gb = gain(rng);
    std::map<std::string, std::vector<std::vector<double>>> rounds;  // setting -> placement -> medians
    for (const auto& [name, g] :
         std::vector<std::pair<std::string, double>>{{"default", 0.0}, {"a", ga}, {"b", gb}})
      for (int p = 0; p < 2; ++p) {
        rounds[name].emplace_back();
        for (int r = 0; r < 5; ++r) rounds[name][p].push_back(100 * (1 - g) * noise(rng));
      }
    const auto fold = [&](const std::map<std::string, std::size_t>& taken) {
      std::vector<CaseResult> cases;
      for (const auto& [name, n] : taken)
        add_round_medians(cases, name,
                          {rounds[name][0].begin(), rounds[name][0].begin() + static_cast<long>(n)},
                          {rounds[name][1].begin(), rounds[name][1].begin() + static_cast<long>(n)});
      return cases;
    };
    // The loop of sweep/confirm_round: prune after each round but the last.
    std::vector<Finalists> alive{{kPrunedSize, {"a", "b"}}};
    std::map<std::string, std::size_t> taken{{"default", 0}, {"a", 0}, {"b", 0}};
    for (std::size_t r = 0; r < 5 && !alive.empty(); ++r) {
      taken["default"]++;
      for (const auto& name : alive.front().settings) taken[name]++;
      if (r + 1 < 5) alive = confirmable_finalists(alive, fold(taken), 5, DecisionRule{});
    }
    pruned_some += taken["a"] < 5 || taken["b"] < 5;
    const ResultsDocument full =
        synthetic_document("mpi", settings, fold({{"default", 5}, {"a", 5}, {"b", 5}}));
    const ResultsDocument pruned = synthetic_document("mpi", settings, fold(taken));
    const auto with_full = tune(sweep, TuneOptions{}, &full).sizes.front();
    const auto with_pruned = tune(sweep, TuneOptions{}, &pruned).sizes.front();
    EXPECT_EQ(with_pruned.winner, with_full.winner) << "trial " << trial << ": gains " << ga << ", " << gb;
    if (with_full.winner == with_pruned.winner && !with_full.winner.empty()) {
      ++confirmed;
      EXPECT_DOUBLE_EQ(with_pruned.gain, with_full.gain);
    }
  }
  EXPECT_GT(pruned_some, 100);  // the pruning did something
  // and true wins were still confirmed (gains up to 12% over 5 rounds of 3% noise: about a quarter
  // of the trials clear the rule, whose intervals must be the margin apart)
  EXPECT_GT(confirmed, 75);
}

// The paired rule (folded by sweep/confirm_round: round medians on both sides): each round's two
// medians are compared with each other. Rounds whose level moves by 2x with the machine's phase
// (both settings alike, as on an oversubscribed VM) confirm a 10% gain the ranges cannot show; one
// round without the margin refutes it; a round missing on the default's side confirms nothing.
TEST(PairedRule, EveryRoundAtLeastTheMarginFasterThanTheSameRoundsDefault) {
  const DecisionRule rule{};  // 2%
  const std::vector<double> base{100, 200, 100, 50, 100};
  const std::vector<double> cand{90, 180, 90, 45, 90};
  EXPECT_TRUE(paired_clearly_faster(base, cand, rule));
  EXPECT_FALSE(paired_clearly_slower(base, cand, rule));
  EXPECT_TRUE(paired_clearly_slower(cand, base, rule));
  EXPECT_FALSE(still_confirmable(summarize(base), summarize(cand)));  // the ranges overlap
  std::vector<double> one_off = cand;
  one_off[3] = 49.5;  // 1% faster in that round: under the margin
  EXPECT_FALSE(paired_clearly_faster(base, one_off, rule));
  EXPECT_FALSE(paired_still_confirmable(base, one_off, rule));
  EXPECT_TRUE(paired_still_confirmable(base, {90, 180}, rule));  // a finalist after 2 rounds
  EXPECT_FALSE(paired_clearly_faster({100, 200}, cand, rule));   // the default's rounds are fewer
  EXPECT_FALSE(paired_clearly_faster(base, {}, rule));
}

// A failed round at another size (its folded case has no round medians) leaves the paired rule
// where both sides have them, whatever the number of rounds (20: the range rule would prune
// nothing): a finalist the ranges would drop but every round confirms is kept, and the size whose
// default failed is dropped.
TEST(PairedRule, AFailedCaseElsewhereDoesNotTurnThePairedRuleOff) {
  std::vector<CaseResult> folded;
  add_round_medians(folded, "default", {100, 200}, {100, 200});
  add_round_medians(folded, "fast", {90, 180}, {90, 180});  // ranges overlap: 90..180 against 100..200
  for (CaseResult& c : folded) c.round_medians_us = {c.time_us.min, c.time_us.max};
  const SizeKey other = add_size_whose_default_failed(folded, "slow", 150);
  const auto kept =
      confirmable_finalists({{kPrunedSize, {"fast"}}, {other, {"slow"}}}, folded, 20, DecisionRule{});
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.front().key, kPrunedSize);
}

// The tuner on folded re-measures: with round medians it follows the paired rule, and the pruning
// (every round so far at the margin) never drops a finalist the full rounds would confirm. 400
// trials with a phase per round shared by every setting (x0.5 to x2) and 3% noise on top: the
// verdicts with the pruned rounds skipped equal the full ones', and gains of 8% and more are
// confirmed in most trials, which the unpaired ranges almost never allow under such phases.
TEST(PairedRule, TheTunersVerdictIsTheSameWithThePrunedRoundsSkipped) {
  std::mt19937 rng(20261205);
  std::uniform_real_distribution<double> gain(-0.03, 0.12), phase(-1.0, 1.0);
  std::lognormal_distribution<double> noise(0.0, 0.01);
  const std::vector<Setting> settings{{"default", "", {}, {}}, {"a", "", {}, {}}};
  std::vector<CaseResult> sweep_cases;
  add_round_medians(sweep_cases, "default", std::vector<double>(20, 100), std::vector<double>(20, 100));
  add_round_medians(sweep_cases, "a", std::vector<double>(20, 80), std::vector<double>(20, 80));
  const ResultsDocument sweep = synthetic_document("mpi", settings, sweep_cases);
  int pruned_some = 0, big_gains = 0, big_confirmed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const double g = gain(rng);
    std::map<std::string, std::vector<std::vector<double>>> rounds;  // setting -> placement -> medians
    for (int p = 0; p < 2; ++p) {
      rounds["default"].emplace_back();
      rounds["a"].emplace_back();
      for (int r = 0; r < 5; ++r) {
        const double level = 100 * std::pow(2.0, phase(rng));
        rounds["default"][p].push_back(level * noise(rng));
        rounds["a"][p].push_back(level * (1 - g) * noise(rng));
      }
    }
    const auto fold = [&](std::size_t base_n, std::size_t cand_n) {
      std::vector<CaseResult> cases;
      for (const auto& [name, n] :
           std::vector<std::pair<std::string, std::size_t>>{{"default", base_n}, {"a", cand_n}}) {
        const std::vector<double> out(rounds[name][0].begin(),
                                      rounds[name][0].begin() + static_cast<long>(n));
        const std::vector<double> in(rounds[name][1].begin(), rounds[name][1].begin() + static_cast<long>(n));
        add_round_medians(cases, name, out, in);
        cases[cases.size() - 2].round_medians_us = out;
        cases.back().round_medians_us = in;
      }
      return cases;
    };
    std::size_t taken = 0;
    for (std::size_t r = 0; r < 5; ++r) {
      ++taken;
      if (r + 1 < 5 &&
          confirmable_finalists({{kPrunedSize, {"a"}}}, fold(r + 1, taken), 5, DecisionRule{}).empty())
        break;
    }
    pruned_some += taken < 5;
    const ResultsDocument full = synthetic_document("mpi", settings, fold(5, 5));
    const ResultsDocument pruned = synthetic_document("mpi", settings, fold(5, taken));
    const auto with_full = tune(sweep, TuneOptions{}, &full).sizes.front();
    const auto with_pruned = tune(sweep, TuneOptions{}, &pruned).sizes.front();
    EXPECT_EQ(with_pruned.winner, with_full.winner) << "trial " << trial << ": gain " << g;
    if (g < 0.02) {
      EXPECT_TRUE(with_full.winner.empty()) << "trial " << trial << ": gain " << g;
    }
    if (g >= 0.08) big_gains += 1, big_confirmed += with_full.winner == "a";
  }
  EXPECT_GT(pruned_some, 100);
  EXPECT_GT(big_confirmed * 10, big_gains * 9);  // at least 90% of the gains of 8% and more
}

}  // namespace
}  // namespace commtune
