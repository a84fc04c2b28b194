// Racing: the pure rule (tune/race) on synthetic samples, and whole raced sweeps through the
// sweep runner on a synthetic noisy backend, tuned as a sweep is: the A/A soundness of the tuner
// must survive racing, a real 10% gain must still be found, and racing must cost less than
// measuring everything.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "control/local_control_plane.hpp"
#include "core/errors.hpp"
#include "measure/sampler.hpp"
#include "plan/race_schedule.hpp"
#include "writers/case_collector.hpp"
#include "sweep/confirm_round.hpp"
#include "sweep/raced_sweep.hpp"
#include "sweep/sweep_runner.hpp"
#include "tune/case_verdict.hpp"
#include "tune/race.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;
using testing::synthetic_document;

std::vector<double> steady(double median_us, std::size_t n, double spread = 0.01) {
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(median_us * (1.0 + spread * (static_cast<double>(i % 11) - 5.0) / 5.0));
  return out;
}

ResultsDocument three_settings(double b_us, double c_us, std::size_t n = 60) {
  std::vector<CaseResult> cases;
  for (Placement p : {Placement::OutOfPlace, Placement::InPlace}) {
    cases.push_back(synthetic_case("default", Collective::AllReduce, 1024, p, steady(100, n)));
    cases.push_back(synthetic_case("b", Collective::AllReduce, 1024, p, steady(b_us, n)));
    cases.push_back(synthetic_case("c", Collective::AllReduce, 1024, p, steady(c_us, n)));
  }
  return synthetic_document(
      "mpi", {Setting{"default", "", {}, {}}, Setting{"b", "", {}, {}}, Setting{"c", "", {}, {}}},
      std::move(cases));
}

const SizeKey kKey{Collective::AllReduce, 1024};

TEST(RaceRule, DropsTheClearlySlowerSettingsWithTheReasonAndKeepsTheBest) {
  const ResultsDocument doc = three_settings(70, 150);
  const RaceVerdict v =
      race_verdict(CaseIndex(doc), kKey, {"default", "b", "c"}, DecisionRule{.margin = 0.02});
  EXPECT_EQ(v.best, "b");
  // c first, as slower than the default (which races until b's verdict); then the default, by b.
  ASSERT_EQ(v.dropped.size(), 2u);
  EXPECT_EQ(v.dropped[0].setting, "c");
  EXPECT_NE(v.dropped[0].reason.find("takes 50.0% more time there"), std::string::npos)
      << v.dropped[0].reason;
  EXPECT_EQ(v.dropped[1].setting, "default");
  EXPECT_NE(v.dropped[1].reason.find("b is clearly faster here: 30.0% less time"), std::string::npos)
      << v.dropped[1].reason;
  EXPECT_EQ(v.survivors, std::vector<std::string>{"b"});
  EXPECT_TRUE(v.decided);
}

TEST(RaceRule, KeepsASettingWithinTheMarginAndDecidesOnlyWhenThePrecisionSettlesIt) {
  // 1% apart with a ~1% spread and few samples: neither dropped nor settled.
  const RaceVerdict coarse = race_verdict(CaseIndex(three_settings(101, 300, 12)), kKey, {"default", "b"},
                                          DecisionRule{.margin = 0.02});
  EXPECT_EQ(coarse.survivors.size(), 2u);
  EXPECT_TRUE(coarse.dropped.empty());
  // The same difference measured precisely: practically equal, nothing left to race for.
  const RaceVerdict fine = race_verdict(CaseIndex(three_settings(100.5, 300, 2000)), kKey, {"default", "b"},
                                        DecisionRule{.margin = 0.02});
  EXPECT_EQ(fine.survivors.size(), 2u);
  EXPECT_TRUE(fine.decided);
}

// b is 30% faster than the default out of place and 50% slower in place; c is the default's twin.
ResultsDocument split_by_placement(std::size_t n = 60) {
  std::vector<CaseResult> cases;
  for (Placement p : {Placement::OutOfPlace, Placement::InPlace}) {
    const bool in_place = p == Placement::InPlace;
    cases.push_back(synthetic_case("default", Collective::AllReduce, 1024, p, steady(100, n)));
    cases.push_back(synthetic_case("b", Collective::AllReduce, 1024, p, steady(in_place ? 150 : 70, n)));
    cases.push_back(synthetic_case("c", Collective::AllReduce, 1024, p, steady(100, n)));
  }
  return synthetic_document(
      "mpi", {Setting{"default", "", {}, {}}, Setting{"b", "", {}, {}}, Setting{"c", "", {}, {}}},
      std::move(cases));
}

TEST(RaceRule, ASettingClearlySlowerThanTheDefaultInOnePlacementCannotWinAndLeaves) {
  const ResultsDocument doc = split_by_placement();
  const RaceVerdict v =
      race_verdict(CaseIndex(doc), kKey, {"default", "b", "c"}, DecisionRule{.margin = 0.02});
  ASSERT_EQ(v.dropped.size(), 1u);
  EXPECT_EQ(v.dropped[0].setting, "b");
  EXPECT_NE(v.dropped[0].reason.find("takes 50.0% more time there"), std::string::npos)
      << v.dropped[0].reason;
  EXPECT_EQ(v.survivors, (std::vector<std::string>{"default", "c"}));
  // The tuner agrees: b never wins against the default here.
  EXPECT_FALSE(verdict_against_default(CaseIndex(doc), "b", kKey, DecisionRule{.margin = 0.02}).faster);
}

TEST(RaceRule, WithoutTheDefaultInTheRaceOnlyTheLeaderDrops) {
  const ResultsDocument doc = split_by_placement();
  const RaceVerdict v = race_verdict(CaseIndex(doc), kKey, {"b", "c"}, DecisionRule{.margin = 0.02});
  // c (200 us over the placements) leads b (220) without beating it out of place: both race on.
  EXPECT_TRUE(v.dropped.empty());
  EXPECT_EQ(v.best, "c");
  EXPECT_EQ(v.survivors.size(), 2u);
}

TEST(RaceRule, ASettingThatFailedLeavesTheRaceUnmarked) {
  ResultsDocument doc = three_settings(90, 95);
  for (auto& c : doc.cases)
    if (c.setting == "c") {
      c.status = CaseStatus::Failed;
      c.reason = "injected";
    }
  const RaceVerdict v =
      race_verdict(CaseIndex(doc), kKey, {"default", "b", "c"}, DecisionRule{.margin = 0.02});
  for (const auto& d : v.dropped) EXPECT_NE(d.setting, "c");
  EXPECT_EQ(std::count(v.survivors.begin(), v.survivors.end(), "c"), 0);
}

TEST(RaceSchedule, RoundsGrowToTheFullSamplingTimeAndNeverBeyond) {
  RaceOptions race;
  race.enabled = true;
  StoppingRule full;
  full.min_time_s = 0.02;
  full.max_time_s = 0.5;
  EXPECT_DOUBLE_EQ(round_rule(full, race, 0).max_time_s, 0.5 / 16);
  EXPECT_DOUBLE_EQ(round_rule(full, race, 3).max_time_s, 0.25);
  EXPECT_DOUBLE_EQ(round_rule(full, race, 9).max_time_s, 0.5);
  EXPECT_DOUBLE_EQ(round_rule(full, race, 1).min_time_s, 0.02 / 8);
  EXPECT_DOUBLE_EQ(round_rule(full, race, 0).target_relative_ci, 0.04);  // 0.01 * sqrt(16)
  EXPECT_DOUBLE_EQ(round_rule(full, race, 9).target_relative_ci, 0.01);
  EXPECT_DOUBLE_EQ(round_rule(full, race, 0).max_batch_s, full.max_batch_s / 16);
  EXPECT_DOUBLE_EQ(round_rule(full, race, 9).max_batch_s, full.max_batch_s);
  EXPECT_DOUBLE_EQ(race_fraction_total(race), 7.0 / 16);
  EXPECT_EQ(round_rule(full, race, 0).min_samples, 5u);  // 10 x sqrt(1/16), at least 5
  EXPECT_EQ(round_rule(full, race, 9).min_samples, 3u);  // the rounds before pooled a full case's
}

TEST(RaceSchedule, ALaterRoundTakesTheLeastSamplesItsPoolLacks) {
  RaceOptions race;
  race.enabled = true;  // 1/16, 1/8, 1/4: 1/16, 3/16 and 7/16 of a full case pooled
  EXPECT_EQ(round_least_samples(10, race, 0), 5u);
  EXPECT_EQ(round_least_samples(10, race, 1), 3u);  // 10 x sqrt(3/16) = 4.3: 5 already, at least 3
  EXPECT_EQ(round_least_samples(10, race, 2), 3u);  // 10 x sqrt(7/16) = 6.6: 7 - 5 = 2, at least 3
  EXPECT_EQ(round_least_samples(100, race, 0), 25u);
  EXPECT_EQ(round_least_samples(100, race, 1), 44u - 25u);
  EXPECT_EQ(round_least_samples(100, race, 2), 67u - 44u);
  EXPECT_EQ(round_least_samples(2, race, 1), 2u);  // never more than the full rule asks
  EXPECT_EQ(round_least_samples(1, race, 2), 1u);
}

TEST(RaceSchedule, AReMeasureRoundSamplesAQuarterAndTakesThreeLeastSamples) {
  StoppingRule full;
  full.min_time_s = 0.02;
  full.max_time_s = 0.5;
  full.min_samples = 10;
  const StoppingRule rule = remeasure_rule(full);
  EXPECT_DOUBLE_EQ(rule.max_time_s, 0.5 * kRemeasureFraction);
  EXPECT_DOUBLE_EQ(rule.min_time_s, 0.02 * kRemeasureFraction);
  EXPECT_EQ(rule.min_samples, 3u);
  full.min_samples = 2;
  EXPECT_EQ(remeasure_rule(full).min_samples, 2u);
}

TEST(RaceSchedule, ACaseRunAgainWarmsUpWithOneCall) {
  RaceOptions race;
  race.enabled = true;
  StoppingRule full;
  full.warmup_iterations = 5;
  EXPECT_EQ(round_rule(full, race, 0).warmup_iterations, 5u);  // the setting's first run of the case
  EXPECT_EQ(round_rule(full, race, 1).warmup_iterations, 1u);
  EXPECT_EQ(round_rule(full, race, 2).warmup_iterations, 1u);
  EXPECT_EQ(remeasure_rule(full).warmup_iterations, 1u);
  full.warmup_iterations = 0;  // -w 0 stays 0
  EXPECT_EQ(round_rule(full, race, 2).warmup_iterations, 0u);
  EXPECT_EQ(remeasure_rule(full).warmup_iterations, 0u);
}

// Round 0's warm-up may end after 3 calls that last the round's least sampling time; the sweep's
// own rule (exhaustive) and a fixed -n run keep every -w call.
TEST(RaceSchedule, RoundZerosWarmUpEndsWhereThreeCallsLastItsLeastTime) {
  RaceOptions race;
  race.enabled = true;
  StoppingRule full;
  full.min_time_s = 0.016;
  const StoppingRule first = round_rule(full, race, 0);
  EXPECT_DOUBLE_EQ(first.warmup_enough_s, first.min_time_s);
  EXPECT_DOUBLE_EQ(first.warmup_enough_s, 0.001);  // 1/16 of the 16 ms
  EXPECT_EQ(full.warmup_enough_s, 0.0);
  EXPECT_EQ(round_rule(full, race, 1).warmup_enough_s, 0.0);
  full.fixed_iterations = 100;
  EXPECT_EQ(round_rule(full, race, 0).warmup_enough_s, 0.0);
}

TEST(RaceSchedule, FixedIterationsScaleWithTheRound) {
  RaceOptions race;
  race.enabled = true;
  StoppingRule full;
  full.fixed_iterations = 100;
  EXPECT_EQ(*round_rule(full, race, 0).fixed_iterations, 7u);
}

// A backend whose settings draw noisy samples around a per-setting median: lognormal noise and
// rare 3x outliers (an oversubscribed host's look), as many samples as the round's max time
// allows (1000 per second of it), so longer rounds are more precise, as on a real machine.
class NoisyBackend : public Backend {
 public:
  NoisyBackend(std::map<std::string, double> speed, std::uint64_t seed)
      : speed_(std::move(speed)), rng_(seed) {}
  std::size_t samples_drawn = 0;
  std::size_t opened = 0;
  std::size_t kept = 1;  // CostModel::sessions_kept
  // The machine speeds up by this share of its speed with each case measured (a drift over
  // minutes, as load or clocks change): a case's times are divided by 1 + drift * cases so far.
  double drift = 0;
  std::size_t cases_run = 0;
  std::vector<std::string> measured;             // each case's setting, in the order measured
  std::size_t led = 0;                           // cases whose rule carried a leader (racing's round 0)
  std::map<std::string, double> in_place_speed;  // a setting's speed in place, where not its speed

  BackendKind kind() const override { return BackendKind::Mpi; }
  PlanLimits limits() const override { return {4, 4, 0}; }
  CostModel cost_model() const override {
    CostModel model;
    model.sessions_kept = kept;
    return model;
  }
  nlohmann::json provenance() const override { return {}; }
  void validate(const Setting&, const SweepOptions&) const override {}
  std::unique_ptr<SettingSession> open(const Setting& s, const SweepOptions&) override {
    ++opened;
    const auto in_place = in_place_speed.find(s.name);
    const double speed = speed_.at(s.name);
    return std::make_unique<Session>(*this, speed,
                                     in_place == in_place_speed.end() ? speed : in_place->second);
  }

 private:
  struct Session : SettingSession {
    Session(NoisyBackend& b, double speed, double in_place) : backend(b), speed(speed), in_place(in_place) {}
    CaseResult run_case(const Case& c, const Setting& s, const SweepOptions& o) override {
      const std::size_t n = std::max<std::size_t>(10, static_cast<std::size_t>(o.stopping.max_time_s * 1000));
      backend.samples_drawn += n;
      std::lognormal_distribution<double> noise(0.0, 0.08);
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      const double pace = 1.0 + backend.drift * static_cast<double>(backend.cases_run++);
      backend.measured.push_back(s.name);
      if (o.stopping.leader) ++backend.led;
      const double own = c.placement == Placement::InPlace ? in_place : speed;
      const double median_s = (10.0 + static_cast<double>(c.bytes) / 100.0) * 1e-6 / own / pace;
      std::vector<double> out;
      for (std::size_t i = 0; i < n; ++i)
        out.push_back(median_s * noise(backend.rng_) * (unit(backend.rng_) < 0.02 ? 3.0 : 1.0));
      return measured_case(c, s.name, 4, out, median_s, 0);
    }
    NoisyBackend& backend;
    double speed;
    double in_place;
  };
  std::map<std::string, double> speed_;
  std::mt19937_64 rng_;
};

Plan race_plan(const std::vector<std::string>& names, bool racing, DecisionRule decision = {}) {
  SweepOptions o;
  o.decision = decision;
  o.sizes = SizeRange{1024, 1u << 17, 2.0, 0};  // 8 sizes
  o.collectives = {Collective::AllReduce};
  o.race.enabled = racing;
  std::vector<Setting> settings;
  for (const auto& n : names)
    settings.push_back(Setting{
        n,
        "",
        n == "default" ? std::map<std::string, std::string>{} : std::map<std::string, std::string>{{"k", n}},
        {}});
  return make_plan(o, settings, PlanLimits{4, 4, 0});
}

struct RaceTrial {
  std::vector<std::string> measured;  // each case's setting, in the order measured
  Recommendation rec;
  ResultsDocument doc;
  std::size_t samples = 0;
};

// Keeps the sweep's notices.
struct NoticeSink : ResultSink {
  std::vector<std::string> notices;
  void notice(const std::string& text) override { notices.push_back(text); }
};

// The machine a trial runs on: how many settings its backend keeps open (1: rounds run setting by
// setting; 64: side by side), and its drift.
struct Machine {
  std::size_t kept = 1;
  double drift = 0;
};

RaceTrial raced_trial(const std::map<std::string, double>& speed, std::uint64_t seed, bool racing = true,
                      std::optional<SweepBudget> budget = std::nullopt, NoticeSink* notices = nullptr,
                      Machine machine = {}, DecisionRule decision = {},
                      std::map<std::string, double> in_place_speed = {}) {
  std::vector<std::string> names;
  for (const auto& [n, s] : speed) names.push_back(n);
  const Plan plan = race_plan(names, racing, decision);
  NoisyBackend backend(speed, seed);
  backend.kept = machine.kept;
  backend.drift = machine.drift;
  backend.in_place_speed = std::move(in_place_speed);
  LocalControlPlane control;
  std::vector<CaseResult> kept;
  CaseCollector keep(kept);
  NoticeSink own;
  ResultSink& display = notices ? *notices : own;
  const SweepRun run{plan, backend, control, [] { return false; }, budget};
  if (racing) {
    EXPECT_TRUE(run_raced_sweep(run, display, keep).complete);
  } else {
    EXPECT_TRUE(run_sweep(run, keep).complete);
  }
  RaceTrial t;
  t.doc = synthetic_document("mpi", plan.settings, kept);
  EXPECT_EQ(t.doc.cases.size(), plan.cases.size());  // every case kept once, raced out or not
  t.rec = tune(t.doc, TuneOptions{.decision = decision});
  t.samples = backend.samples_drawn;
  t.measured = backend.measured;
  return t;
}

// A/A trials of `trials` in which a setting other than the default won somewhere.
int false_winners_of(int trials, std::uint64_t seed, Machine machine) {
  int false_winners = 0;
  for (int t = 0; t < trials; ++t)
    false_winners += raced_trial({{"default", 1.0}, {"default-again", 1.0}, {"slow", 0.6}}, seed + t, true,
                                 std::nullopt, nullptr, machine)
                             .rec.defaults_best()
                         ? 0
                         : 1;
  return false_winners;
}

TEST(RacedSweep, SameSettingTwiceYieldsAFalseWinnerInAtMostFivePercentOfTrials) {
  const int trials = 100;
  const int setting_by_setting = false_winners_of(trials, 1000, Machine{1, 0});
  const int side_by_side = false_winners_of(trials, 1000, Machine{64, 0});
  std::cout << "raced A/A false-winner rate: " << setting_by_setting << "/" << trials
            << " setting by setting, " << side_by_side << "/" << trials << " side by side\n";
  EXPECT_LE(setting_by_setting, trials * 5 / 100);
  EXPECT_LE(side_by_side, trials * 5 / 100);
}

// A machine that speeds up by 0.5% a case (about 20% over round 0 here): setting by setting, the
// default's copy is measured a third of the round later and looks faster; side by side, a size's
// settings are measured one after another and the drift shifts them alike.
TEST(RacedSweep, SideBySideRoundsKeepADriftingMachineFromMakingAFalseWinner) {
  const int trials = 40;
  const int setting_by_setting = false_winners_of(trials, 3000, Machine{1, 0.005});
  const int side_by_side = false_winners_of(trials, 3000, Machine{64, 0.005});
  std::cout << "raced A/A under drift: false winners " << setting_by_setting << "/" << trials
            << " setting by setting, " << side_by_side << "/" << trials << " side by side\n";
  EXPECT_GE(setting_by_setting, trials / 2);  // the drift this test is about is real
  EXPECT_LE(side_by_side, trials * 5 / 100);
}

TEST(RacedSweep, ARealTenPercentGainIsStillFoundAndTheSlowSettingIsRacedOut) {
  int found = 0;
  const int trials = 100;
  for (int t = 0; t < trials; ++t) {
    const Machine machine{t % 2 == 0 ? std::size_t{1} : std::size_t{64}, 0};  // half the trials side by side
    const RaceTrial trial = raced_trial({{"default", 1.0}, {"faster", 1.10}, {"slow", 0.6}}, 5000 + t, true,
                                        std::nullopt, nullptr, machine);
    std::size_t won = 0;
    for (const auto& d : trial.rec.sizes) won += d.winner == "faster" ? 1 : 0;
    found += won == trial.rec.sizes.size() ? 1 : 0;
    for (const auto& c : trial.doc.cases)
      if (c.setting == "slow") {
        ASSERT_TRUE(c.raced_out) << "slow survived at " << c.spec.bytes;
        EXPECT_EQ(c.raced_out->round, 1u);
      }
  }
  EXPECT_GE(found, trials * 95 / 100);
}

// An algorithm 20% faster out of place and three times slower in place (Open MPI's in-place
// basic_linear at megabytes) can never win against the default: it leaves after round 0, where the
// leader (faster overall by the sum of its placements) would have kept it racing, and the pick is the
// exhaustive sweep's.
TEST(RacedSweep, ASettingThatLosesToTheDefaultInOnePlacementLeavesAfterRoundZero) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"split", 1.20}, {"faster", 1.10}};
  const std::map<std::string, double> in_place{{"split", 0.33}};
  for (std::size_t kept : {std::size_t{1}, std::size_t{64}}) {
    const RaceTrial raced =
        raced_trial(speed, 91, true, std::nullopt, nullptr, Machine{kept, 0}, {}, in_place);
    const RaceTrial full =
        raced_trial(speed, 91, false, std::nullopt, nullptr, Machine{kept, 0}, {}, in_place);
    for (const auto& c : raced.doc.cases)
      if (c.setting == "split") {
        ASSERT_TRUE(c.raced_out) << "split survived at " << c.spec.bytes;
        EXPECT_EQ(c.raced_out->round, 1u);
        EXPECT_NE(c.raced_out->reason.find("cannot win against the default"), std::string::npos)
            << c.raced_out->reason;
      }
    const auto split_cases = std::count(raced.measured.begin(), raced.measured.end(), "split");
    EXPECT_EQ(static_cast<std::size_t>(split_cases), raced.rec.sizes.size() * 2);  // round 0's only
    ASSERT_EQ(raced.rec.sizes.size(), full.rec.sizes.size());
    for (std::size_t i = 0; i < raced.rec.sizes.size(); ++i) {
      EXPECT_NE(full.rec.sizes[i].winner, "split");
      EXPECT_EQ(raced.rec.sizes[i].winner, full.rec.sizes[i].winner) << "at size " << i;
    }
  }
}

TEST(RacedSweep, RacingDrawsFarFewerSamplesThanMeasuringEverything) {
  const std::map<std::string, double> speed{
      {"default", 1.0}, {"faster", 1.10}, {"slow", 0.6}, {"slower", 0.4}};
  const RaceTrial raced = raced_trial(speed, 42);
  const RaceTrial full = raced_trial(speed, 42, false);
  std::cout << "samples: raced " << raced.samples << ", exhaustive " << full.samples << "\n";
  EXPECT_LT(raced.samples * 2, full.samples);
  for (std::size_t i = 0; i < raced.rec.sizes.size(); ++i)
    EXPECT_EQ(raced.rec.sizes[i].winner, full.rec.sizes[i].winner);
}

// The sweep's margin (sweep --margin, the config's "margin") is the one racing drops and settles
// with, the one the finalists of the re-measure are picked by and the one the tuning decides with: a
// 6% gain wins at 2% and, at 10%, is practically equal to the default, settled early and never a
// finalist.
TEST(Margin, TheSweepsMarginDecidesRacingTheRemeasureAndTheTuningAlike) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.06}, {"slow", 0.6}};
  const DecisionRule narrow{.margin = 0.02}, wide{.margin = 0.10};
  const RaceTrial at_2 = raced_trial(speed, 77, true, std::nullopt, nullptr, Machine{64, 0}, narrow);
  const RaceTrial at_10 = raced_trial(speed, 77, true, std::nullopt, nullptr, Machine{64, 0}, wide);
  std::size_t won_at_2 = 0;
  for (const auto& d : at_2.rec.sizes) won_at_2 += d.winner == "faster" ? 1 : 0;
  EXPECT_GE(won_at_2, at_2.rec.sizes.size() - 1);
  EXPECT_TRUE(at_10.rec.defaults_best());
  EXPECT_DOUBLE_EQ(at_10.rec.min_margin, 0.10);
  EXPECT_LT(at_10.samples, at_2.samples);  // settled as practically equal, not raced to the last round
  EXPECT_FALSE(pick_finalists(at_2.doc, TuneOptions{.decision = narrow}).empty());
  EXPECT_TRUE(pick_finalists(at_2.doc, TuneOptions{.decision = wide}).empty());
  // The race's drops are made at the sweep's margin: slow is 40% slower, out at either.
  for (const RaceTrial* t : {&at_2, &at_10})
    for (const auto& c : t->doc.cases) {
      if (c.setting == "slow") {
        EXPECT_TRUE(c.raced_out.has_value());
      }
    }
}

// The cases a raced sweep of `plan` on `backend` keeps (on one rank, nothing interrupting it).
std::vector<CaseResult> race_on(const Plan& plan, Backend& backend) {
  LocalControlPlane control;
  std::vector<CaseResult> kept;
  CaseCollector keep(kept);
  NoticeSink display;
  EXPECT_TRUE(
      run_raced_sweep(SweepRun{plan, backend, control, [] { return false; }}, display, keep).complete);
  return kept;
}

// Opens per setting of a raced sweep of `speed` whose backend keeps `kept` settings open.
std::size_t opens_when_keeping(std::size_t kept) {
  const std::map<std::string, double> speed{
      {"default", 1.0}, {"b", 1.0}, {"c", 1.0}, {"d", 1.0}};  // a race of 4 rounds
  std::vector<std::string> names;
  for (const auto& [n, s] : speed) names.push_back(n);
  const Plan plan = race_plan(names, true);
  NoisyBackend backend(speed, 3);
  backend.kept = kept;
  EXPECT_EQ(race_on(plan, backend).size(), plan.cases.size());
  return backend.opened;
}

// Round 0 gives every raced case but the first measured at its size and placement the fastest
// case so far as its leader (its rule stops it once clearly slower); later rounds give none.
TEST(RacedSweep, RoundZeroGivesEachCaseAfterTheFirstAtItsSizeTheFastestSoFar) {
  for (const std::size_t kept : {std::size_t{1}, std::size_t{64}}) {
    const Plan plan = race_plan({"default", "a", "b"}, true);
    NoisyBackend backend({{"default", 1.0}, {"a", 1.0}, {"b", 0.5}}, 77);
    backend.kept = kept;
    race_on(plan, backend);
    EXPECT_GT(backend.measured.size(), plan.cases.size());  // later rounds ran, with no leader
    EXPECT_EQ(backend.led, plan.cases.size() - plan.cases.size() / 3)
        << kept;  // 8 sizes x 2 placements first
  }
}

// A backend whose cases sample as a real one does: batches of noisy samples (lognormal, 2% of
// them 3x outliers) around a per-setting median of about a millisecond, until the case's own
// stopping rule says stop; so a round-0 case that is clearly slower than its size's leader stops
// early (measure/stopping_rule's leader), as it does on a machine.
class RuledBackend : public Backend {
 public:
  RuledBackend(std::map<std::string, double> speed, std::uint64_t seed)
      : speed_(std::move(speed)), rng_(seed) {}
  std::size_t stopped_on_leader = 0;

  BackendKind kind() const override { return BackendKind::Mpi; }
  PlanLimits limits() const override { return {4, 4, 0}; }
  CostModel cost_model() const override {
    CostModel model;
    model.sessions_kept = 64;
    return model;
  }
  nlohmann::json provenance() const override { return {}; }
  void validate(const Setting&, const SweepOptions&) const override {}
  std::unique_ptr<SettingSession> open(const Setting& s, const SweepOptions&) override {
    return std::make_unique<Session>(*this, speed_.at(s.name));
  }

 private:
  struct Timer : BatchTimer {
    Timer(double median_s, std::mt19937_64& rng) : median_s(median_s), rng(rng) {}
    BatchTimes time_batch(std::size_t iterations) override {
      std::lognormal_distribution<double> noise(0.0, 0.08);
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      BatchTimes out;
      for (std::size_t i = 0; i < iterations; ++i)
        out.samples.push_back(median_s * noise(rng) * (unit(rng) < 0.02 ? 3.0 : 1.0));
      return out;
    }
    double median_s;
    std::mt19937_64& rng;
  };
  struct Session : SettingSession {
    Session(RuledBackend& b, double speed) : backend(b), speed(speed) {}
    CaseResult run_case(const Case& c, const Setting& s, const SweepOptions& o) override {
      Timer timer((1.0 + static_cast<double>(c.bytes) / 1e6) * 1e-3 / speed, backend.rng_);
      const SampleRun run = sample_until_stable(timer, o.stopping);
      StoppingRule own = o.stopping;
      own.leader.reset();
      if (o.stopping.leader && !own.should_stop(run.sampled())) ++backend.stopped_on_leader;
      return measured_case(c, s.name, 4, run, 0);
    }
    RuledBackend& backend;
    double speed;
  };
  std::map<std::string, double> speed_;
  std::mt19937_64 rng_;
};

// The race's pick over `trials` trials on the RuledBackend: how often the default was not the
// best (A/A), or `winner` won at every size; and how many cases stopped on their leader.
struct RuledTrials {
  int not_default = 0, all_won = 0;
  std::size_t stopped_on_leader = 0;
};

RuledTrials ruled_trials(const std::map<std::string, double>& speed, int trials, std::uint64_t seed,
                         const std::string& winner) {
  RuledTrials out;
  std::vector<std::string> names;
  for (const auto& [n, s] : speed) names.push_back(n);
  for (int t = 0; t < trials; ++t) {
    const Plan plan = race_plan(names, true);
    RuledBackend backend(speed, seed + static_cast<std::uint64_t>(t));
    const Recommendation rec =
        tune(synthetic_document("mpi", plan.settings, race_on(plan, backend)), TuneOptions{});
    out.not_default += rec.defaults_best() ? 0 : 1;
    std::size_t won = 0;
    for (const auto& d : rec.sizes) won += d.winner == winner ? 1 : 0;
    out.all_won += won == rec.sizes.size() ? 1 : 0;
    out.stopped_on_leader += backend.stopped_on_leader;
  }
  return out;
}

// With cases that sample until their own rule stops them, and round 0's cases stopping once
// clearly slower than their size's leader: no false winner in the A/A race above 5%, a real 10%
// gain still found in 95 of 100.
TEST(RacedSweep, CasesStoppedOnTheirLeaderMakeNoFalseWinnerAndLoseNoRealGain) {
  const RuledTrials aa =
      ruled_trials({{"default", 1.0}, {"default-again", 1.0}, {"slow", 0.6}}, 100, 11000, "");
  const RuledTrials gain =
      ruled_trials({{"default", 1.0}, {"faster", 1.10}, {"slow", 0.6}}, 100, 12000, "faster");
  std::cout << "cases sampled by their rule: A/A false winners " << aa.not_default << "/100, 10% found "
            << gain.all_won << "/100; cases stopped on their leader: " << aa.stopped_on_leader << " and "
            << gain.stopped_on_leader << "\n";
  EXPECT_GT(aa.stopped_on_leader + gain.stopped_on_leader, 0u)
      << "no case stopped on its leader: the test shows nothing";
  EXPECT_LE(aa.not_default, 5);
  EXPECT_GE(gain.all_won, 95);
}

TEST(RacedSweep, EachSettingStartsOnceWhenTheBackendKeepsThemOpen) {
  EXPECT_EQ(opens_when_keeping(64), 4u);
  // Keeping none, every round opens its survivors again; keeping one, rounds alternate their
  // order, so the one kept last is the first used again and each later round saves a start.
  const std::size_t none = opens_when_keeping(0), one = opens_when_keeping(1);
  std::cout << "opens: keeping none " << none << ", one " << one << ", all 4\n";
  EXPECT_GT(none, 4u);
  EXPECT_LT(one, none);
}

TEST(RacedSweep, ASpentBudgetEndsTheRaceAfterTheFirstRoundAndKeepsEveryCase) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.10}, {"slow", 0.6}};
  const SweepBudget spent{10, 10, SweepBudget::Clock::now() - std::chrono::seconds(20), CostModel{}};
  NoticeSink notices;
  const RaceTrial trial = raced_trial(speed, 7, true, spent, &notices);
  // Round 0 only: 3 settings x 8 sizes x 2 placements, each at 1/16 of 0.5 s (31 samples here).
  EXPECT_EQ(trial.samples, 48u * 31u);
  EXPECT_EQ(trial.doc.cases.size(), 48u);
  for (const auto& c : trial.doc.cases) {
    if (c.raced_out) {
      EXPECT_EQ(c.raced_out->round, 1u);
    }
  }
  ASSERT_EQ(notices.notices.size(), 1u);
  EXPECT_EQ(
      notices.notices[0].rfind(
          "--budget 10s: racing ends after 20s (round 2 would not end within the sweep's 10s of it); ", 0),
      0u)
      << notices.notices[0];
  EXPECT_NE(notices.notices[0].find("sizes undecided keep their survivors as measured"), std::string::npos);
}

TEST(RacedSweep, AnAmpleBudgetRacesAsWithoutOne) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.10}, {"slow", 0.6}};
  NoticeSink notices;
  const RaceTrial budgeted =
      raced_trial(speed, 11, true, SweepBudget{3600, 3600, SweepBudget::Clock::now(), CostModel{}}, &notices);
  const RaceTrial free = raced_trial(speed, 11);
  EXPECT_TRUE(notices.notices.empty());
  EXPECT_EQ(budgeted.samples, free.samples);
  ASSERT_EQ(budgeted.rec.sizes.size(), free.rec.sizes.size());
  for (std::size_t i = 0; i < free.rec.sizes.size(); ++i)
    EXPECT_EQ(budgeted.rec.sizes[i].winner, free.rec.sizes[i].winner);
}

// What a re-measure's backend saw: its opens, and each case's setting in the order measured.
struct RemeasureLog {
  std::size_t opened = 0;
  std::vector<std::string> measured;
};

// The finalists' re-measure under --budget, on the noisy backend: 5 rounds of 2 sizes.
Confirmation remeasure(const std::map<std::string, double>& speed, const std::vector<std::string>& finalists,
                       std::optional<SweepBudget> budget, std::size_t kept = 1, RemeasureLog* log = nullptr,
                       const RaceRounds& race = {}) {
  std::vector<std::string> names;
  for (const auto& [n, s] : speed) names.push_back(n);
  const Plan plan = race_plan(names, false);
  NoisyBackend backend(speed, 5);
  backend.kept = kept;
  LocalControlPlane control;
  const SweepRun run{plan, backend, control, [] { return false; }, budget};
  Confirmation out = run_confirm_round(
      run,
      {{SizeKey{Collective::AllReduce, 1024}, finalists}, {SizeKey{Collective::AllReduce, 2048}, finalists}},
      5, race);
  if (log) *log = RemeasureLog{backend.opened, backend.measured};
  return out;
}

// Kept open, a round measures each size's default and finalist one after another, and the settings
// are opened once for all the rounds; with one kept open, each round after the first reopens the
// one that was closed (the kept one is used first).
TEST(Remeasure, EachRoundRunsSideBySideWhenKeptOpenAndOpensEachSettingOnce) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.5}};
  RemeasureLog side, apart;
  ASSERT_EQ(remeasure(speed, {"faster"}, std::nullopt, 64, &side).rounds, 5u);
  ASSERT_EQ(remeasure(speed, {"faster"}, std::nullopt, 1, &apart).rounds, 5u);
  EXPECT_EQ(side.opened, 2u);
  EXPECT_EQ(apart.opened, 6u);  // 2 in round 1, then 1 in each of the 4 others
  // Round 1: 2 sizes x 2 placements of each setting.
  ASSERT_EQ(side.measured.size(), 40u);
  EXPECT_EQ(std::vector<std::string>(side.measured.begin(), side.measured.begin() + 8),
            (std::vector<std::string>{"default", "default", "faster", "faster", "default", "default",
                                      "faster", "faster"}));
  EXPECT_EQ(std::vector<std::string>(apart.measured.begin(), apart.measured.begin() + 8),
            (std::vector<std::string>{"default", "default", "default", "default", "faster", "faster",
                                      "faster", "faster"}));
  EXPECT_EQ(side.measured[8], "faster");  // round 2 starts with the next setting of the rotation
}

std::size_t rounds_of(const Confirmation& c, const std::string& setting) {
  std::size_t most = 0;
  for (const auto& r : c.cases->cases)
    if (r.setting == setting) most = std::max(most, r.time_us.count);
  return most;
}

TEST(Remeasure, AClearWinnerRunsEveryRoundAndATieStopsEarly) {
  const Confirmation c =
      remeasure({{"default", 1.0}, {"faster", 1.5}, {"same", 1.0}}, {"faster", "same"}, std::nullopt);
  ASSERT_TRUE(c.cases);
  EXPECT_EQ(c.rounds, 5u);
  EXPECT_TRUE(c.budget_note.empty());
  EXPECT_EQ(rounds_of(c, "faster"), 5u);
  EXPECT_EQ(rounds_of(c, "default"), 5u);
  EXPECT_LT(rounds_of(c, "same"), 5u);  // a round median at or above the default's: it cannot be confirmed
}

// The race's rounds at 1 KiB as RaceRounds: `medians` per setting, both placements alike.
RaceRounds race_at_1k(const std::map<std::string, std::vector<double>>& medians) {
  RaceRounds race;
  for (const auto& [setting, rounds] : medians)
    for (Placement p : {Placement::OutOfPlace, Placement::InPlace})
      for (double us : rounds) {
        CaseResult c = synthetic_case(setting, Collective::AllReduce, 1024, p, {us});
        c.wrong = -1;
        race.cases.push_back(c);
      }
  race.counted[SizeKey{Collective::AllReduce, 1024}] = medians.begin()->second.size();
  return race;
}

const CaseResult& folded_at(const Confirmation& c, const std::string& setting, std::uint64_t bytes) {
  for (const auto& r : c.cases->cases)
    if (r.setting == setting && r.spec.bytes == bytes) return r;
  throw std::runtime_error("no folded case of " + setting);
}

// Three race rounds counted at 1 KiB: it runs 2 rounds of its own, 2 KiB all 5; each size's
// folded cases hold 5 round medians, the race's first.
TEST(Remeasure, TheRaceRoundsCountedAtASizeAreRoundsItDoesNotRun) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.5}};
  RemeasureLog log;
  const Confirmation c = remeasure(speed, {"faster"}, std::nullopt, 64, &log,
                                   race_at_1k({{"default", {40, 40, 40}}, {"faster", {20, 20, 20}}}));
  ASSERT_TRUE(c.cases);
  EXPECT_EQ(c.rounds, 5u);
  EXPECT_EQ(log.measured.size(), 2u * 2u * (2u + 5u));  // 2 settings x 2 placements x the rounds run
  for (std::uint64_t bytes : {1024u, 2048u}) {
    EXPECT_EQ(folded_at(c, "faster", bytes).round_medians_us.size(), 5u);
    EXPECT_EQ(folded_at(c, "default", bytes).round_medians_us.size(), 5u);
  }
  EXPECT_EQ(folded_at(c, "faster", 1024).round_medians_us.front(), 20);
  EXPECT_EQ(folded_at(c, "default", 1024).round_medians_us.front(), 40);
}

// A race round in which the finalist was not the margin below the default refutes it before the
// re-measure runs a round there: 1 KiB is not measured at all.
TEST(Remeasure, ARaceRoundThatRefutesAFinalistSparesItsSize) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.5}};
  RemeasureLog log;
  const Confirmation c = remeasure(speed, {"faster"}, std::nullopt, 64, &log,
                                   race_at_1k({{"default", {40, 40}}, {"faster", {20, 40}}}));
  ASSERT_TRUE(c.cases);
  EXPECT_EQ(log.measured.size(), 2u * 2u * 5u);                         // 2 KiB only
  EXPECT_EQ(folded_at(c, "faster", 1024).round_medians_us.size(), 2u);  // the race's, as they were
}

// Every finalist refuted by its race rounds: no round runs, and the confirmation holds the race's
// rounds, so the tuning sees why nothing won.
TEST(Remeasure, FinalistsAllRefutedByTheRaceRunNoRoundAndKeepItsRounds) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.5}};
  const Plan plan = race_plan({"default", "faster"}, false);
  NoisyBackend backend(speed, 5);
  LocalControlPlane control;
  const SweepRun run{plan, backend, control, [] { return false; }};
  const Confirmation c = run_confirm_round(run, {{SizeKey{Collective::AllReduce, 1024}, {"faster"}}}, 5,
                                           race_at_1k({{"default", {40, 40}}, {"faster", {20, 40}}}));
  EXPECT_EQ(c.rounds, 0u);
  EXPECT_TRUE(backend.measured.empty());
  ASSERT_TRUE(c.cases);
  EXPECT_EQ(folded_at(c, "faster", 1024).round_medians_us, (std::vector<double>{20, 40}));
}

TEST(Remeasure, ASpentBudgetRunsNoRoundAndAnAmpleOneEveryRound) {
  const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.5}};
  const Confirmation none =
      remeasure(speed, {"faster"},
                SweepBudget{10, 7.5, SweepBudget::Clock::now() - std::chrono::seconds(20), CostModel{}});
  EXPECT_FALSE(none.cases);
  EXPECT_EQ(none.rounds, 0u);
  EXPECT_TRUE(none.out_of_budget());
  EXPECT_EQ(none.budget_note.rfind("--budget 10s: no time left for the finalists' re-measure after 20s", 0),
            0u)
      << none.budget_note;
  const Confirmation all =
      remeasure(speed, {"faster"}, SweepBudget{3600, 2700, SweepBudget::Clock::now(), CostModel{}});
  ASSERT_TRUE(all.cases);
  EXPECT_EQ(all.rounds, 5u);
  EXPECT_TRUE(all.budget_note.empty());
}

// The whole command as a user runs it: the raced sweep, then the finalists' re-measure (its rounds
// at a share of a full case, stopping once a finalist cannot be confirmed), then the tuning on both.
// The machine's drift goes on through the re-measure.
// `counting_race_rounds`: the race's side-by-side rounds count as the re-measure's first (as
// sweep_tuning has it).
RaceTrial whole_trial(const std::map<std::string, double>& speed, std::uint64_t seed, Machine machine,
                      bool counting_race_rounds = true) {
  std::vector<std::string> names;
  for (const auto& [n, s] : speed) names.push_back(n);
  const Plan plan = race_plan(names, true);
  NoisyBackend backend(speed, seed);
  backend.kept = machine.kept;
  backend.drift = machine.drift;
  LocalControlPlane control;
  std::vector<CaseResult> kept;
  CaseCollector keep(kept);
  NoticeSink display;
  const SweepRun run{plan, backend, control, [] { return false; }, std::nullopt};
  EXPECT_TRUE(run_raced_sweep(run, display, keep).complete);
  RaceTrial t;
  t.doc = synthetic_document("mpi", plan.settings, kept);
  const TuneOptions options{};
  const std::vector<Finalists> finalists = pick_finalists(t.doc, options);
  const RaceRounds race =
      counting_race_rounds ? race_rounds(t.doc, finalists, options.confirm_rounds) : RaceRounds{};
  const Confirmation c = run_confirm_round(run, finalists, options.confirm_rounds, race);
  const ResultsDocument none = synthetic_document("mpi", plan.settings, {});
  t.rec = tune(t.doc, options, c.cases ? &*c.cases : &none);
  t.samples = backend.samples_drawn;
  t.measured = backend.measured;
  return t;
}

// A/A through the whole command: the default's copy never wins, on a steady machine or one that
// drifts by 0.5% a case (side by side, as the backend keeps every setting open).
TEST(WholeCommand, TheSameSettingTwiceNeverWinsEvenUnderDrift) {
  const int trials = 100;
  int steady = 0, drifting = 0;
  for (int t = 0; t < trials; ++t) {
    const std::map<std::string, double> speed{{"default", 1.0}, {"default-again", 1.0}, {"slow", 0.6}};
    steady += whole_trial(speed, 7000 + t, Machine{64, 0}).rec.defaults_best() ? 0 : 1;
    drifting += whole_trial(speed, 8000 + t, Machine{64, 0.005}).rec.defaults_best() ? 0 : 1;
  }
  std::cout << "whole command A/A false winners: " << steady << "/" << trials << " steady, " << drifting
            << "/" << trials << " under drift\n";
  EXPECT_LE(steady, trials * 5 / 100);
  EXPECT_LE(drifting, trials * 5 / 100);
}

// Counting the race's rounds, the re-measure draws fewer samples for the same verdicts on a
// clear gain: the race is the same (same seeds), the re-measure runs fewer rounds.
TEST(WholeCommand, CountingTheRaceRoundsDrawsFewerSamplesForTheSameWinners) {
  std::size_t counting = 0, not_counting = 0;
  for (int t = 0; t < 20; ++t) {
    const std::map<std::string, double> speed{{"default", 1.0}, {"faster", 1.25}, {"slow", 0.6}};
    const RaceTrial with = whole_trial(speed, 9500 + t, Machine{64, 0});
    const RaceTrial without = whole_trial(speed, 9500 + t, Machine{64, 0}, false);
    counting += with.samples;
    not_counting += without.samples;
    ASSERT_EQ(with.rec.sizes.size(), without.rec.sizes.size());
    for (std::size_t i = 0; i < with.rec.sizes.size(); ++i) {
      EXPECT_EQ(with.rec.sizes[i].winner, "faster");
      EXPECT_EQ(without.rec.sizes[i].winner, "faster");
    }
  }
  std::cout << "whole command samples, 20 trials: counting the race rounds " << counting << ", not "
            << not_counting << "\n";
  EXPECT_LT(counting, not_counting);
}

// A real 10% gain is found through the race and confirmed by the re-measure at every size.
TEST(WholeCommand, ARealTenPercentGainIsConfirmed) {
  const int trials = 100;
  int found = 0;
  for (int t = 0; t < trials; ++t) {
    const Machine machine{t % 2 == 0 ? std::size_t{1} : std::size_t{64}, 0};
    const RaceTrial trial =
        whole_trial({{"default", 1.0}, {"faster", 1.10}, {"slow", 0.6}}, 9000 + t, machine);
    std::size_t won = 0;
    for (const auto& d : trial.rec.sizes) won += d.winner == "faster" ? 1 : 0;
    found += won == trial.rec.sizes.size() ? 1 : 0;
  }
  std::cout << "whole command 10% gain confirmed at every size: " << found << "/" << trials << "\n";
  EXPECT_GE(found, trials * 95 / 100);
}

}  // namespace
}  // namespace commtune
