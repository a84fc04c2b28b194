// The NCCL backend's replay of a training step (`commtune replay`, issue 28) through simulated
// workers: the supervisor asks every worker for the steps, the calls run on their group spec's
// communicators, and the job's figures are each step's and each call's slowest rank.
#include <gtest/gtest.h>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/step_agreement.hpp"
#include "control/local_control_plane.hpp"
#include "core/collective_traits.hpp"
#include "plan/setting.hpp"

namespace commtune {
namespace {

Case call_case(Collective collective, std::uint64_t bytes, const GroupSpec& group, int nranks) {
  Case c;
  c.collective = collective;
  c.bytes = bytes;
  c.dtype = DataType::Float32;
  c.count = buffer_counts(collective, bytes, c.dtype, nranks).count;
  c.group = group;
  return c;
}

TEST(ReplaySteps, TheProtocolCarriesCallsAndStepsBothWays) {
  const GroupSpec div2 = parse_group_spec("DIV 2", "test");
  const StepsRequest request{
      .calls = {{.spec = call_case(Collective::AllReduce, 1 << 20, GroupSpec{}, 4), .repeat = 3},
                {.spec = call_case(Collective::AllGather, 4096, div2, 2), .repeat = 1}},
      .steps = 5,
      .warmup = 1};
  const StepsRequest back = steps_request_from_json(to_json(request));
  ASSERT_EQ(back.calls.size(), 2u);
  EXPECT_EQ(back.calls[0].repeat, 3u);
  EXPECT_EQ(back.calls[1].spec.group, div2);
  EXPECT_EQ(back.calls[1].spec.collective, Collective::AllGather);
  EXPECT_EQ(back.steps, 5u);
  EXPECT_EQ(back.warmup, 1u);
  StepsRequest loaded = request;
  loaded.contend = 0.5;
  EXPECT_EQ(steps_request_from_json(to_json(loaded)).contend, 0.5);
  loaded.contend = 1.5;
  EXPECT_THROW(steps_request_from_json(to_json(loaded)), ProtocolError);
  StepsRequest none = request;
  none.calls.clear();
  EXPECT_THROW(steps_request_from_json(to_json(none)), ProtocolError);
  EXPECT_THROW(replayed_steps_from_json({{"step_seconds", {1.0, 2.0}}, {"call_seconds", {{1.0}}}}),
               ProtocolError);
}

TEST(ReplaySteps, EachStepAndCallIsItsSlowestRanks) {
  const nlohmann::json a = to_json(ReplayedSteps{.step_seconds = {3, 5}, .call_seconds = {{1, 4}, {2, 1}}});
  const nlohmann::json b = to_json(ReplayedSteps{.step_seconds = {4, 2}, .call_seconds = {{3, 1}, {1, 1}}});
  const ReplayedSteps slowest = replayed_steps_from_json(combine_replayed_steps({a, b}));
  EXPECT_EQ(slowest.step_seconds, (std::vector<double>{4, 5}));
  EXPECT_EQ(slowest.call_seconds, (std::vector<std::vector<double>>{{3, 4}, {2, 1}}));
  const nlohmann::json short_one = to_json(ReplayedSteps{.step_seconds = {1}, .call_seconds = {{1}, {1}}});
  EXPECT_THROW(combine_replayed_steps({a, short_one}), BackendError);
}

// Four simulated workers (two GPUs, emulated nodes), the world and DIV 2: a step of a 1 MiB world
// all-reduce twice, then a 4 MiB all-gather on the groups; the model's 4-rank all-reduce is slower
// per byte than its 2-rank all-gather, and a call's share is its repeats together.
TEST(ReplaySteps, SimulatedWorkersReplayCallsOnTheirGroups) {
  LocalControlPlane control;
  SupervisorLayout layout{.nranks = 4,
                          .ranks = {0, 1, 2, 3},
                          .devices = {0, 1, 0, 1},
                          .ranks_per_device = 2,
                          .nnodes = 4,
                          .node_of_rank = {0, 0, 0, 0},
                          .nvls_hardware = false};
  NcclRunOptions run;
  run.emulate_nodes = true;
  run.init_timeout_s = 20;
  run.case_timeout_s = 20;
  NcclBackend backend(control, layout, run, WorkerCommand{COMMTUNE_SIMULATED_BINARY, {}}, 80ull << 30, {});
  SweepOptions options;
  const GroupSpec div2 = parse_group_spec("DIV 2", "test");
  options.groups = {GroupSpec{}, div2};
  options.collectives = {Collective::AllReduce, Collective::AllGather};
  std::unique_ptr<SettingSession> session = backend.open(Setting{"default", "", {}, {}}, options);
  const std::vector<StepCall> calls{
      {.spec = call_case(Collective::AllReduce, 1 << 20, GroupSpec{}, 4), .repeat = 2},
      {.spec = call_case(Collective::AllGather, 4 << 20, div2, 2), .repeat = 1}};
  const StepTimes times = session->run_steps(calls, 6, 1);
  ASSERT_EQ(times.step_seconds.size(), 6u);
  ASSERT_EQ(times.call_seconds.size(), 2u);
  for (std::size_t s = 0; s < 6; ++s) {
    EXPECT_NEAR(times.step_seconds[s], times.call_seconds[0][s] + times.call_seconds[1][s], 2e-6);
    // 2 x (8 us + 1 MiB x 1.5 / 80 GB/s) against 8 us + 4 MiB x 0.5 / 80 GB/s, give or take the noise.
    EXPECT_GT(times.call_seconds[0][s], 1.2 * times.call_seconds[1][s]);
  }
  const StepCall unsplit{.spec =
                             call_case(Collective::AllReduce, 1024, parse_group_spec("MOD 2", "test"), 2)};
  EXPECT_THROW(session->run_steps({unsplit}, 1, 0), BackendError);
}

}  // namespace
}  // namespace commtune
