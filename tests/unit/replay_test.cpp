// commtune replay's pure parts (issue 28): the step's calls from a workload, the check that a job
// fits it, the verdict and money from replayed steps, the results file written and read back (and
// refused when bad), the table (golden), a recommendation's job-wide choices as one setting.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "replay/replay_as_results.hpp"
#include "replay/replay_job.hpp"
#include "replay/replay_record.hpp"
#include "replay/replay_table.hpp"
#include "replay/replay_verdict.hpp"
#include "tune/job_setting.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

Workload two_buckets() {
  Workload w;
  w.world_ranks = 4;
  w.collectives = {WorkloadCollective{.collective = Collective::AllReduce,
                                      .bytes = 1 << 20,
                                      .datatype = DataType::Float32,
                                      .op = ReduceOp::Sum,
                                      .group = GroupSpec{},
                                      .group_ranks = 4,
                                      .count = 1,
                                      .label = "bucket 0"},
                   WorkloadCollective{.collective = Collective::AllGather,
                                      .bytes = 64 << 10,
                                      .datatype = DataType::BFloat16,
                                      .op = ReduceOp::Sum,
                                      .group = parse_group_spec("DIV 2", ""),
                                      .group_ranks = 2,
                                      .count = 3,
                                      .label = ""}};
  w.source.kind = "preset";
  return w;
}

// `n` steps around `seconds`, spread by +-1% in a fixed pattern; each call a share of it.
SettingReplay replayed(const std::string& name, double seconds, std::size_t n,
                       std::map<std::string, std::string> knobs = {}) {
  SettingReplay s;
  s.setting = Setting{name, "", std::move(knobs), {}};
  s.call_seconds.resize(2);
  for (std::size_t i = 0; i < n; ++i) {
    const double step = seconds * (1 + 0.01 * (static_cast<double>(i % 5) - 2) / 2);
    s.step_seconds.push_back(step);
    s.call_seconds[0].push_back(step * 0.25);
    s.call_seconds[1].push_back(step * 0.75);
  }
  s.round_medians = {seconds};
  return s;
}

TEST(ReplayJob, EachEntryIsACaseOnItsGroupRepeatedItsCount) {
  const std::vector<StepCall> calls = step_calls(two_buckets());
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].spec.collective, Collective::AllReduce);
  EXPECT_EQ(calls[0].spec.count, (1u << 20) / 4);  // float elements
  EXPECT_EQ(calls[0].repeat, 1u);
  EXPECT_EQ(calls[1].spec.count, (64u << 10) / 2 / 2);  // each of 2 ranks' bfloat16 share
  EXPECT_EQ(calls[1].spec.group.name(), "DIV 2");
  EXPECT_EQ(calls[1].repeat, 3u);
  EXPECT_EQ(calls[1].spec.placement, Placement::OutOfPlace);
  EXPECT_EQ(step_groups(two_buckets()).size(), 2u);
}

TEST(ReplayJob, AJobOfOtherRanksOrGroupSizesIsRefused) {
  const Workload w = two_buckets();
  const std::vector<int> nodes{0, 0, 1, 1};
  const std::vector<GroupLayout> layouts{layout_groups(GroupSpec{}, nodes),
                                         layout_groups(parse_group_spec("DIV 2", ""), nodes)};
  EXPECT_NO_THROW(check_job_fits(w, "w.json", 4, layouts));
  EXPECT_THROW(check_job_fits(w, "w.json", 8, layouts), InputError);
  Workload other = w;
  other.collectives[1].group_ranks = 4;
  EXPECT_THROW(check_job_fits(other, "w.json", 4, layouts), InputError);
}

TEST(ReplayJob, APriceNeedsAPositiveAmountAndAnIsoCurrency) {
  EXPECT_NO_THROW(check_price(Price{.per_gpu_hour = 2.5, .currency = "CNY", .steps_per_run = 100}));
  EXPECT_THROW(check_price(Price{.per_gpu_hour = 0, .currency = "USD", .steps_per_run = 0}), InputError);
  EXPECT_THROW(check_price(Price{.per_gpu_hour = 2, .currency = "usd", .steps_per_run = 0}), InputError);
  EXPECT_THROW(check_price(Price{.per_gpu_hour = 2, .currency = "EURO", .steps_per_run = 0}), InputError);
}

TEST(ReplayVerdict, ASlowerSettingHasAnIntervalAboveZeroAndItsCost) {
  ReplayOptions options;
  options.price = Price{.per_gpu_hour = 3.6, .currency = "USD", .steps_per_run = 10000};
  const std::vector<SettingReplay> settings{replayed("default", 0.010, 40),
                                            replayed("slow", 0.013, 40, {{"k", "v"}}),
                                            replayed("same", 0.010, 40, {{"k", "w"}})};
  const std::vector<SettingFigures> f = judge_replay(settings, options, 8);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].verdict, ReplayVerdict::Baseline);
  EXPECT_NEAR(f[0].calls[0].share, 0.25, 1e-12);
  EXPECT_NEAR(f[0].calls[1].share, 0.75, 1e-12);
  EXPECT_EQ(f[1].verdict, ReplayVerdict::Slower);
  ASSERT_TRUE(f[1].change && f[1].change->money);
  EXPECT_NEAR(f[1].change->change, 0.3, 1e-9);
  EXPECT_GT(f[1].change->low, 0);
  EXPECT_LE(f[1].change->low, f[1].change->change);
  EXPECT_GE(f[1].change->high, f[1].change->change);
  // 3 ms lost a step x 1000 steps x 8 GPUs = 24 GPU-seconds, at 3.6 a GPU-hour: 0.024.
  EXPECT_NEAR(f[1].change->money->per_1000_steps, -0.024, 1e-9);
  EXPECT_NEAR(*f[1].change->money->per_run, -0.24, 1e-9);
  EXPECT_LE(f[1].change->money->per_1000_low, f[1].change->money->per_1000_steps);
  EXPECT_EQ(f[2].verdict, ReplayVerdict::Equal);
}

TEST(ReplayVerdict, AFailedSettingKeepsItsReasonAndNoDefaultMeansNoChange) {
  SettingReplay failed;
  failed.setting = Setting{"broken", "", {{"k", "v"}}, {}};
  failed.failure = "setting not applied: rank 1: no such knob";
  std::vector<SettingFigures> f = judge_replay({replayed("default", 0.01, 10), failed}, ReplayOptions{}, 4);
  EXPECT_EQ(f[1].verdict, ReplayVerdict::Failed);
  EXPECT_EQ(f[1].reason, *failed.failure);
  SettingReplay no_default = replayed("default", 0.01, 10);
  no_default.step_seconds.clear();
  no_default.call_seconds = {{}, {}};
  f = judge_replay({no_default, replayed("other", 0.01, 10, {{"k", "v"}})}, ReplayOptions{}, 4);
  EXPECT_EQ(f[0].verdict, ReplayVerdict::Failed);
  EXPECT_EQ(f[1].verdict, ReplayVerdict::Undecided);
  EXPECT_FALSE(f[1].change);
}

ReplayRecord record() {
  ReplayRecord r;
  r.nranks = 4;
  r.workload = two_buckets();
  r.workload_file = "w.json";
  r.options.rounds = 2;
  r.options.steps = 20;
  r.options.price = Price{.per_gpu_hour = 2.5, .currency = "CNY", .steps_per_run = 100000};
  r.contend = 0.5;
  r.rounds_run = 2;
  r.complete = true;
  r.settings = {replayed("default", 0.010, 40),
                replayed("slow", 0.013, 40, {{"coll_tuned_allreduce_algorithm", "1"}})};
  r.provenance = {{"labels", {"simulated: test"}}};
  return r;
}

TEST(ReplayRecord, WrittenAndReadBackIsTheSame) {
  const ReplayRecord r = record();
  const ReplayRecord back = replay_from_json(to_json(r), "r.json");
  ASSERT_EQ(back.settings.size(), r.settings.size());
  for (std::size_t i = 0; i < r.settings.size(); ++i) {
    EXPECT_EQ(back.settings[i].setting.name, r.settings[i].setting.name);
    EXPECT_EQ(back.settings[i].setting.knobs, r.settings[i].setting.knobs);
    EXPECT_EQ(back.settings[i].step_seconds, r.settings[i].step_seconds);
    EXPECT_EQ(back.settings[i].call_seconds, r.settings[i].call_seconds);
    EXPECT_EQ(back.settings[i].round_medians, r.settings[i].round_medians);
  }
  EXPECT_EQ(back.workload, r.workload);
  EXPECT_EQ(back.options.steps, 20u);
  EXPECT_EQ(back.options.price->currency, "CNY");
  EXPECT_EQ(back.contend, 0.5);
  EXPECT_TRUE(back.complete);
}

TEST(ReplayRecord, ABadFileIsOneInputError) {
  const nlohmann::json good = to_json(record());
  std::vector<nlohmann::json> bad(8, good);
  bad[0]["version"] = 2;
  bad[1]["settings"][0]["step_seconds"][0] = -1;
  bad[2]["settings"][0]["call_seconds"].erase(0);
  bad[3]["settings"][1]["call_seconds"][0].erase(0);
  bad[4]["surprise"] = 1;
  bad[5]["nranks"] = 8;
  bad[6]["price"]["currency"] = "cny";
  bad[7]["options"]["rounds"] = 0;
  for (std::size_t i = 0; i < bad.size(); ++i)
    EXPECT_THROW(replay_from_json(bad[i], "r.json"), InputError) << i;
  EXPECT_THROW(replay_from_json(nlohmann::json{{"kind", "commtune-workload"}}, "r.json"), InputError);
}

TEST(ReplayTable, Golden) { testing::expect_golden("replay/table.txt", replay_table(record())); }

TEST(ReplayTable, Json) { testing::expect_golden("replay/results.json", to_json(record()).dump(1) + "\n"); }

TEST(ReplayAsResults, EachCallIsACaseWithARunPerRound) {
  ReplayRecord r = record();
  r.options.steps = 20;  // 40 steps a setting: 2 rounds
  const ResultsDocument doc = replay_as_results(r);
  ASSERT_EQ(doc.cases.size(), 4u);  // 2 settings x 2 distinct calls
  const CaseResult& c = doc.cases[1];
  EXPECT_EQ(c.setting, "default");
  EXPECT_EQ(c.spec.collective, Collective::AllGather);
  EXPECT_EQ(c.spec.group.name(), "DIV 2");
  EXPECT_EQ(c.nranks, 2);
  EXPECT_EQ(c.run_medians_us.size(), 2u);
  EXPECT_NEAR(c.time_us.median, 7500, 100);  // 0.75 of a 10 ms step, in microseconds
  EXPECT_EQ(doc.provenance["replay"]["contend"], 0.5);
  // Two entries of one case in a step are one case: their seconds a step added up.
  r.workload.collectives.push_back(r.workload.collectives[1]);
  for (SettingReplay& s : r.settings) s.call_seconds.push_back(s.call_seconds[1]);
  const ResultsDocument merged = replay_as_results(r);
  ASSERT_EQ(merged.cases.size(), 4u);
  EXPECT_NEAR(merged.cases[1].time_us.median, 15000, 200);
}

Recommendation recommended(BackendKind backend, std::vector<Setting> settings,
                           std::vector<JobChoice> choices) {
  Recommendation rec;
  rec.backend = backend;
  rec.settings = std::move(settings);
  rec.choices = std::move(choices);
  return rec;
}

TEST(JobSetting, OpenMpiMergesTheChoicesAndSaysAConflict) {
  const Setting ring{"ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {Collective::AllReduce}};
  const Setting bcast{"bcast", "", {{"coll_tuned_bcast_algorithm", "pipeline"}}, {Collective::Broadcast}};
  std::vector<std::string> notes;
  const Setting s = job_wide_setting(recommended(BackendKind::Mpi, {ring, bcast},
                                                 {JobChoice{.scope = "allreduce", .setting = "ring"},
                                                  JobChoice{.scope = "broadcast", .setting = "bcast"},
                                                  JobChoice{.scope = "allgather", .setting = "default"}}),
                                     notes);
  EXPECT_EQ(s.name, kRecommendationSettingName);
  EXPECT_EQ(s.knobs, (std::map<std::string, std::string>{{"coll_tuned_allreduce_algorithm", "ring"},
                                                         {"coll_tuned_bcast_algorithm", "pipeline"}}));
  EXPECT_TRUE(notes.empty());
  const Setting other{"other", "", {{"coll_tuned_allreduce_algorithm", "recursive_doubling"}}, {}};
  job_wide_setting(recommended(BackendKind::Mpi, {ring, other},
                               {JobChoice{.scope = "allreduce", .setting = "ring"},
                                JobChoice{.scope = "process", .setting = "other"}}),
                   notes);
  EXPECT_EQ(notes.size(), 1u);
}

TEST(JobSetting, NcclPerCollectiveAlgorithmsMergeInNcclsSyntax) {
  const Setting tree{"tree", "", {{"NCCL_ALGO", "Tree"}}, {}};
  const Setting socket{"socket", "", {{"NCCL_SOCKET_NTHREADS", "4"}}, {}};
  Recommendation rec = recommended(BackendKind::Nccl, {tree, socket},
                                   {JobChoice{.scope = "allreduce", .setting = "tree"},
                                    JobChoice{.scope = "process", .setting = "socket"}});
  rec.sizes = {SizeDecision{.collective = Collective::AllReduce, .bytes = 1024, .winner = "tree"}};
  std::vector<std::string> notes;
  const Setting s = job_wide_setting(rec, notes);
  EXPECT_EQ(s.knobs.at("NCCL_SOCKET_NTHREADS"), "4");
  EXPECT_EQ(s.knobs.at("NCCL_ALGO").find("allreduce:"), 0u) << s.knobs.at("NCCL_ALGO");
  ASSERT_FALSE(notes.empty());  // the per-size rules are not replayed
}

}  // namespace
}  // namespace commtune
