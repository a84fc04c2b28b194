// The watchdog and the agreement, with real processes: the test build as a simulated worker.
#include <gtest/gtest.h>

#include <cstdlib>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/step_agreement.hpp"
#include "core/errors.hpp"
#include "control/deadline_control_plane.hpp"
#include "control/local_control_plane.hpp"
#include "backend/nccl/supervisor/worker_group.hpp"

namespace commtune {
namespace {

WorkerSpawn fake_worker(int rank, int nranks, const std::string& fault = "") {
  std::vector<std::string> environment;
  if (!fault.empty()) environment.push_back("COMMTUNE_TEST_FAULT=" + fault);
  // Under the sanitizer build the worker needs the suite's options too (handle_segv=0: the
  // deliberate crash must stay a SIGSEGV).
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS"})
    if (const char* value = std::getenv(name)) environment.push_back(std::string(name) + "=" + value);
  return WorkerSpawn{COMMTUNE_SIMULATED_BINARY, worker_arguments(rank, nranks, 0), environment};
}

std::vector<std::string> init_lines() {
  return {request_line("init", {{"unique_id", std::string(256, 'a')}, {"config", nlohmann::json::object()}})};
}

TEST(WorkerGroup, HealthyWorkersAnswerEveryStep) {
  WorkerGroup group({fake_worker(0, 2), fake_worker(1, 2)}, {0, 1});
  std::vector<WorkerReply> replies;
  EXPECT_TRUE(group.exchange(init_lines(), std::chrono::seconds(5), "init", replies).ok());
  Case c;
  c.bytes = 1024;
  c.count = 256;
  ASSERT_TRUE(group
                  .exchange({request_line("prepare", {{"case", to_json(CaseRequest{c, true, false})}})},
                            std::chrono::seconds(5), "prepare", replies)
                  .ok());
  ASSERT_TRUE(
      group.exchange({request_line("time", {{"iterations", 4}})}, std::chrono::seconds(5), "timing", replies)
          .ok());
  EXPECT_EQ(replies[1].body["seconds"].size(), 4u);
  group.finish(std::chrono::seconds(5));
  EXPECT_FALSE(group.alive());
}

TEST(WorkerGroup, AHungWorkerTimesOutAndIsKilled) {
  WorkerGroup group({fake_worker(0, 2), fake_worker(1, 2, "hang-init:1")}, {0, 1});
  std::vector<WorkerReply> replies;
  const auto start = Clock::now();
  const StepOutcome outcome = group.exchange(init_lines(), std::chrono::milliseconds(500), "init", replies);
  EXPECT_EQ(outcome.status, StepStatus::TimedOut);
  EXPECT_TRUE(outcome.fatal);
  EXPECT_NE(outcome.reason.find("rank 1"), std::string::npos) << outcome.reason;
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(group.alive());
}

TEST(WorkerGroup, ACrashIsReportedAtOnceWithItsSignal) {
  WorkerGroup group({fake_worker(0, 1, "crash-init")}, {0});
  std::vector<WorkerReply> replies;
  const auto start = Clock::now();
  const StepOutcome outcome = group.exchange(init_lines(), std::chrono::seconds(30), "init", replies);
  EXPECT_EQ(outcome.status, StepStatus::Failed);
  EXPECT_NE(outcome.reason.find("signal 11"), std::string::npos) << outcome.reason;
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));  // not the 30 s deadline
}

TEST(WorkerGroup, AWorkerThatCannotStartIsASettingError) {
  EXPECT_THROW(WorkerGroup({WorkerSpawn{"/nonexistent/commtune", {}, {}}}, {0}), SettingError);
}

TEST(StepAgreement, AWorkersOwnFailureBeatsTheTimeoutsItCaused) {
  const StepOutcome timeout{StepStatus::TimedOut, "rank 0 timed out", true};
  const StepOutcome crash{StepStatus::Failed, "rank 1 crashed", true};
  EXPECT_EQ(worst_outcome({timeout, crash}).reason, "rank 1 crashed");
  EXPECT_EQ(worst_outcome({StepOutcome{}, timeout}).status, StepStatus::TimedOut);
  EXPECT_TRUE(worst_outcome({StepOutcome{}, StepOutcome{}}).ok());
}

TEST(StepAgreement, CombinesPerIterationMaximaAndWrongCounts) {
  const auto longest = combine_timed_batches(
      {{{"seconds", {1.0, 5.0}}, {"loop_seconds", 6.0}}, {{"seconds", {2.0, 3.0}}, {"loop_seconds", 5.0}}});
  EXPECT_EQ(longest["seconds"], (std::vector<double>{2.0, 5.0}));
  EXPECT_EQ(sum_wrong({{{"wrong", 2}}, {{"wrong", 3}}})["wrong"], 5);
  LocalControlPlane local;
  const AgreedStep agreed = agree_step(local, StepOutcome{}, {{"wrong", 4}}, sum_wrong);
  EXPECT_TRUE(agreed.outcome.ok());
  EXPECT_EQ(agreed.data["wrong"], 4);
}

TEST(StepAgreement, LoopSecondsAreTheMeanOverRanksAsNcclTestsAverages) {
  const auto combined = combine_timed_batches(
      {{{"seconds", {1.0}}, {"loop_seconds", 4.0}}, {{"seconds", {3.0}}, {"loop_seconds", 8.0}}});
  EXPECT_DOUBLE_EQ(combined["loop_seconds"].get<double>(), 6.0);
  EXPECT_EQ(combined["ranks"], 2);
}

TEST(StepAgreement, CombiningCombinedPartsWeighsEveryRankAlike) {
  // One supervisor with three workers, another with one: rank 0 combines their combinations.
  const auto three = combine_timed_batches({{{"seconds", {1.0}}, {"loop_seconds", 3.0}},
                                            {{"seconds", {2.0}}, {"loop_seconds", 3.0}},
                                            {{"seconds", {1.5}}, {"loop_seconds", 3.0}}});
  const auto one = combine_timed_batches({{{"seconds", {0.5}}, {"loop_seconds", 7.0}}});
  const auto all = combine_timed_batches({three, one});
  EXPECT_DOUBLE_EQ(all["loop_seconds"].get<double>(), 4.0);  // (3 + 3 + 3 + 7) / 4, not (3 + 7) / 2
  EXPECT_EQ(all["ranks"], 4);
  EXPECT_EQ(all["seconds"], (std::vector<double>{2.0}));
}

// Each worker's host-thread CPU and wall seconds, keyed by the rank its supervisor added, survive
// both combinations (each supervisor's, then rank 0's) in rank order.
TEST(StepAgreement, EachRanksCpuSecondsSurviveBothCombinations) {
  auto batch = [](int rank, double cpu, double wall) {
    return nlohmann::json{
        {"seconds", {1.0}}, {"loop_seconds", 1.0}, {"cpu_s", cpu}, {"wall_s", wall}, {"rank", rank}};
  };
  const auto first = combine_timed_batches({batch(2, 0.3, 1.0), batch(0, 0.9, 1.0)});
  const auto second = combine_timed_batches({batch(1, 0.8, 2.0), batch(3, 0.7, 1.0)});
  const auto all = combine_timed_batches({second, first});
  const std::vector<RankCpu> cpu = rank_cpu_of(all, 4);
  ASSERT_EQ(cpu.size(), 4u) << all.dump();
  EXPECT_DOUBLE_EQ(cpu[0].cpu_s, 0.9);
  EXPECT_DOUBLE_EQ(cpu[1].wall_s, 2.0);
  EXPECT_DOUBLE_EQ(cpu[2].cpu_s, 0.3);
  EXPECT_DOUBLE_EQ(cpu[3].cpu_s, 0.7);
  EXPECT_TRUE(rank_cpu_of(all, 5).empty());    // rank 4 missing
  EXPECT_TRUE(rank_cpu_of(first, 4).empty());  // ranks 1 and 3 missing
}

TEST(StepAgreement, OneRankWithoutCpuSecondsDropsThemForTheWholeBatch) {
  const nlohmann::json with{
      {"seconds", {1.0}}, {"loop_seconds", 1.0}, {"cpu_s", 0.5}, {"wall_s", 1.0}, {"rank", 0}};
  const nlohmann::json without{{"seconds", {1.0}}, {"loop_seconds", 1.0}, {"rank", 1}};
  const auto combined = combine_timed_batches({with, without});
  EXPECT_FALSE(combined.contains("rank_cpu")) << combined.dump();
  EXPECT_FALSE(combine_timed_batches({combined, combine_timed_batches({with})}).contains("rank_cpu"));
  // The same rank twice is not a rank per entry.
  const auto twice = combine_timed_batches({with, with});
  EXPECT_TRUE(rank_cpu_of(twice, 2).empty());
}

TEST(StepAgreement, TimedBatchesOfDifferentLengthsAreRefused) {
  EXPECT_THROW(combine_timed_batches({{{"seconds", {1.0, 2.0}}, {"loop_seconds", 3.0}},
                                      {{"seconds", {1.0}}, {"loop_seconds", 1.0}}}),
               BackendError);
  EXPECT_THROW(combine_timed_batches({{{"seconds", {1.0}}}}), nlohmann::json::exception);  // no loop_seconds
}

TEST(WorkerEnvironment, KnobsOverrideAndEmulationAddsAHostId) {
  const Setting setting{"s", "", {{"NCCL_ALGO", "Ring"}, {"NCCL_MIN_CTAS", "4"}}, {}};
  const auto environment = worker_environment({"PATH=/bin", "NCCL_ALGO=Tree"}, setting, 3, true);
  auto has = [&](const std::string& entry) {
    return std::find(environment.begin(), environment.end(), entry) != environment.end();
  };
  EXPECT_TRUE(has("NCCL_ALGO=Ring"));
  EXPECT_FALSE(has("NCCL_ALGO=Tree"));
  EXPECT_FALSE(has("NCCL_MIN_CTAS=4"));  // goes through ncclConfig_t
  EXPECT_TRUE(has("NCCL_HOSTID=commtune-emulated-node-3"));
  EXPECT_TRUE(has("NCCL_NET=Socket"));
  EXPECT_EQ(comm_config_of(setting).min_ctas, 4);
}

// NCCL lets NCCL_MIN_CTAS / NCCL_MAX_CTAS, NCCL_NET and NCCL_COMM_BLOCKING of the environment
// override ncclConfig_t (src/init.cc): where a setting sets those through the config, the user's
// shell must not reach its workers, or every CTA setting would measure the shell's bounds.
TEST(WorkerEnvironment, TheShellDoesNotOverrideASettingsConfig) {
  const std::vector<std::string> shell{"PATH=/bin", "NCCL_MAX_CTAS=2", "NCCL_MIN_CTAS=1", "NCCL_NET=IB",
                                       "NCCL_COMM_BLOCKING=0"};
  const Setting ctas{"ctas", "", {{"NCCL_MIN_CTAS", "16"}}, {}};
  const auto environment = worker_environment(shell, ctas, 0, false);
  auto has = [&](const std::string& entry) {
    return std::find(environment.begin(), environment.end(), entry) != environment.end();
  };
  auto named = [&](const std::string& name) {
    return std::any_of(environment.begin(), environment.end(),
                       [&](const std::string& e) { return e.rfind(name + "=", 0) == 0; });
  };
  EXPECT_FALSE(named("NCCL_MAX_CTAS"));  // the config sets 16..64: the shell's 2 would win over it
  EXPECT_FALSE(named("NCCL_MIN_CTAS"));
  EXPECT_FALSE(named("NCCL_COMM_BLOCKING"));
  EXPECT_TRUE(has("NCCL_NET=IB"));  // the setting names no network: the shell's stays
  EXPECT_EQ(config_overrides(shell, ctas),
            (std::vector<std::string>{"NCCL_COMM_BLOCKING=0", "NCCL_MAX_CTAS=2", "NCCL_MIN_CTAS=1"}));

  const Setting socket{"socket", "", {{"NCCL_NET", "Socket"}}, {}};
  const auto net = worker_environment(shell, socket, 0, false);
  EXPECT_NE(std::find(net.begin(), net.end(), "NCCL_NET=Socket"), net.end());
  EXPECT_NE(std::find(net.begin(), net.end(), "NCCL_MAX_CTAS=2"),
            net.end());  // no CTA bounds in this setting: the shell's apply
  EXPECT_EQ(config_overrides(shell, socket),
            (std::vector<std::string>{"NCCL_COMM_BLOCKING=0", "NCCL_NET=IB"}));
  EXPECT_TRUE(config_overrides({"PATH=/bin"}, ctas).empty());
}

// The deadline's clock, moved by the test alone: no test waits for wall time to pass. It also keeps
// what the plane reported on expiry, and tells when the watcher has looked at the clock's time.
class ManualClock : public DeadlineClock {
 public:
  time_point now() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return now_;
  }
  void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& changed,
                  time_point until) override {
    {
      std::lock_guard<std::mutex> own(mutex_);
      if (now_ >= until) return;
      sleeper_ = Sleeper{lock.mutex(), &changed};
      seen_ = now_;
    }
    looked_.notify_all();
    changed.wait(lock);
    std::lock_guard<std::mutex> own(mutex_);
    sleeper_ = Sleeper{};
  }
  void advance(std::chrono::milliseconds by) {
    Sleeper sleeper;
    {
      std::lock_guard<std::mutex> own(mutex_);
      now_ += by;
      sleeper = sleeper_;
    }
    if (sleeper.mutex == nullptr) return;
    std::lock_guard<std::mutex> lock(*sleeper.mutex);  // the watcher's until it waits: no lost wake-up
    sleeper.changed->notify_all();
  }
  // Until the watcher has either reported an expiry or gone back to waiting after seeing the
  // current time. False (a failure, not a hang) if it does neither within 10 s of wall time.
  bool settle() {
    std::unique_lock<std::mutex> own(mutex_);
    return looked_.wait_for(own, std::chrono::seconds(10), [&] {
      return !expiries_.empty() || (sleeper_.mutex != nullptr && seen_ == now_);
    });
  }
  std::function<void(const std::string&)> on_expiry() {
    return [this](const std::string& message) {
      {
        std::lock_guard<std::mutex> own(mutex_);
        expiries_.push_back(message);
      }
      looked_.notify_all();
    };
  }
  std::vector<std::string> expiries() {
    std::lock_guard<std::mutex> own(mutex_);
    return expiries_;
  }

 private:
  struct Sleeper {
    std::mutex* mutex = nullptr;
    std::condition_variable* changed = nullptr;
  };
  std::mutex mutex_;
  std::condition_variable looked_;
  time_point now_{};
  time_point seen_{};
  Sleeper sleeper_;
  std::vector<std::string> expiries_;
};

constexpr std::chrono::milliseconds kDeadline{30000};

// A peer whose answer takes `lasts` of the clock's time to come.
class SlowPlane : public LocalControlPlane {
 public:
  SlowPlane(ManualClock& clock, std::chrono::milliseconds lasts) : clock_(clock), lasts_(lasts) {}
  bool any(bool local) override {
    answer();
    return local;
  }
  std::string broadcast_from_root(const std::string& text) override {
    answer();
    return text;
  }
  bool settled = true;

 private:
  void answer() {
    clock_.advance(lasts_);
    settled = settled && clock_.settle();
  }
  ManualClock& clock_;
  std::chrono::milliseconds lasts_;
};

TEST(DeadlineControlPlane, APeerThatNeverAnswersEndsTheWaitAtTheDeadline) {
  ManualClock clock;
  SlowPlane almost(clock, kDeadline - std::chrono::milliseconds(1));
  {
    DeadlineControlPlane control(almost, kDeadline, clock.on_expiry(), clock);
    control.any(false);  // answered 1 ms before the deadline: nothing said
    ASSERT_TRUE(almost.settled);
    EXPECT_TRUE(clock.expiries().empty());
  }
  SlowPlane never(clock, kDeadline);
  DeadlineControlPlane control(never, kDeadline, clock.on_expiry(), clock);
  control.any(false);  // still waiting at the deadline: the job ends
  ASSERT_TRUE(never.settled);
  const auto expiries = clock.expiries();
  ASSERT_EQ(expiries.size(), 1u);
  EXPECT_NE(expiries[0].find("rank 0"), std::string::npos) << expiries[0];
  EXPECT_NE(expiries[0].find("any"), std::string::npos) << expiries[0];  // the call it waited in
}

TEST(DeadlineControlPlane, OnlyTheTimeInsideACallCounts) {
  ManualClock clock;
  SlowPlane answers(clock, kDeadline - std::chrono::milliseconds(1));
  DeadlineControlPlane control(answers, kDeadline, clock.on_expiry(), clock);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(control.broadcast_from_root("x"), "x");
    clock.advance(10 * kDeadline);  // between calls: idle, however long
  }
  ASSERT_TRUE(answers.settled);
  EXPECT_TRUE(clock.expiries().empty()) << clock.expiries()[0];
}

}  // namespace
}  // namespace commtune
