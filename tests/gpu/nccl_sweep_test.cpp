// Real NCCL sweeps on one GPU through the local control plane (no launcher), most with emulated
// nodes (several ranks on the one GPU, each its own NCCL node over loopback sockets): every case
// measures with #wrong 0 under CUDA-graph launch, reduce-scatter and a non-power-of-two rank count,
// CTA bounds through the communicator config, forced socket transport; a hanging setting is
// recorded and the sweep goes on. Skips, saying why, where no GPU is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "gpu_sweep.hpp"

namespace commtune {
namespace {

using namespace commtune::gpu_testing;
using commtune::testing::ScratchDir;

// The test build commtune-faults: real NCCL workers, with a hang injected into one setting.
TEST(GpuSweep, EmulatedNodesMeasureCorrectDataAndSurviveAHang) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  std::ofstream(dir.file("gpu.json")) << R"({"sweep": {"min_bytes": "8", "max_bytes": "1M", "factor": 32,
    "collectives": ["allreduce", "allgather", "broadcast", "reducescatter"], "max_time": 0.1},
    "settings": [{"name": "ring-simple", "knobs": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "Simple"}},
                 {"name": "hang", "knobs": {"COMMTUNE_TEST_FAULT": "hang-case:1"}},
                 {"name": "ring-ll", "knobs": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "LL"}}]})";
  const SweepRun run = run_sweep(
      {faults_binary(), "sweep", "--backend", "nccl", "--ranks", "2", "--emulate-nodes", "--config",
       dir.file("gpu.json"), "--init-timeout", "60", "--case-timeout", "10", "--out", dir.file("r.json")},
      dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  nlohmann::json healthy = run.results;
  ASSERT_TRUE(healthy.is_object()) << run.ran.err;
  nlohmann::json& cases = healthy["cases"];
  cases.erase(std::remove_if(cases.begin(), cases.end(),
                             [](const nlohmann::json& c) { return c.value("setting", "") == "hang"; }),
              cases.end());
  expect_all_measured(healthy, 2, "ring-simple and ring-ll");
  EXPECT_EQ(count_cases(healthy, "setting", "ring-ll"), count_cases(healthy, "setting", "ring-simple"));
  EXPECT_GT(count_cases(healthy, "collective", "reducescatter"), 0u);
  std::size_t hung = 0;
  for (const auto& c : run.results["cases"])
    if (c.value("setting", "") == "hang" && hung++ == 0) {
      EXPECT_EQ(c.value("status", ""), "timed-out") << c.dump();
    }
  EXPECT_GT(hung, 0u);
  expect_nccl_provenance(run.results, 1, true, false);
}

TEST(GpuSweep, CudaGraphLaunchMeasuresEveryCollective) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  const SweepRun run = run_sweep(short_sweep(product_binary(), dir.file("r.json"),
                                             {"--ranks", "2", "--emulate-nodes", "--graph", "--collectives",
                                              "allreduce,allgather,broadcast,reducescatter"}),
                                 dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  expect_all_measured(run.results, 2, "--graph");
  for (const char* collective : {"allreduce", "allgather", "broadcast", "reducescatter"})
    EXPECT_GT(count_cases(run.results, "collective", collective), 0u) << collective;
  expect_nccl_provenance(run.results, 1, true, true);
}

// Communicator groups on the GPU (issue 27): four ranks on the one GPU, the world and two groups of
// two (DIV 2), each group's communicator split from the world's with ncclCommSplit; every case of
// every collective measures correct data on its own communicator's ranks, and a grouped case keeps
// both groups' figures with the members the spec gives.
TEST(GpuSweep, GroupsSplitFromTheWorldMeasureCorrectData) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  const SweepRun run =
      run_sweep(short_sweep(product_binary(), dir.file("r.json"),
                            {"--ranks", "4", "--emulate-nodes", "--groups", "world,DIV 2", "--collectives",
                             "allreduce,allgather,broadcast,reducescatter"}),
                dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  ASSERT_TRUE(run.results.is_object()) << run.ran.err;
  std::size_t grouped = 0;
  for (const auto& c : run.results["cases"]) {
    EXPECT_EQ(c.value("status", ""), "ok") << describe(c) << ": " << c.value("reason", "");
    EXPECT_EQ(c.value("wrong", -2), 0) << describe(c);
    if (!c.contains("group")) {
      EXPECT_EQ(c.value("nranks", 0), 4) << describe(c);
      continue;
    }
    ++grouped;
    EXPECT_EQ(c.value("group", ""), "DIV 2");
    EXPECT_EQ(c.value("nranks", 0), 2) << describe(c);
    ASSERT_TRUE(c.contains("groups")) << describe(c);
    EXPECT_EQ(c["groups"]["members"].size(), 2u) << describe(c);
    EXPECT_EQ(c["groups"]["members"][0]["ranks"], nlohmann::json({0, 1})) << describe(c);
    EXPECT_EQ(c["groups"]["members"][1]["ranks"], nlohmann::json({2, 3})) << describe(c);
  }
  EXPECT_GE(grouped, 8u);  // four collectives, sizes in and out of place
}

// --contend on the GPU (issue 28): a kernel holding half the SMs on its own stream while every case
// is timed; the collectives still measure correct data and the results record the load.
TEST(GpuSweep, ContendedSweepMeasuresCorrectDataBesideTheLoad) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  const SweepRun run = run_sweep(short_sweep(product_binary(), dir.file("r.json"),
                                             {"--ranks", "2", "--emulate-nodes", "--contend", "0.5",
                                              "--collectives", "allreduce,allgather"}),
                                 dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  expect_all_measured(run.results, 2, "contended sweep");
  EXPECT_EQ(run.results["sweep"].value("contend", 0.0), 0.5) << run.results["sweep"].dump();
}

// Three ranks: shares that are not a power of two, and a broadcast rooted on the last rank.
TEST(GpuSweep, ReduceScatterAllGatherAndBroadcastOnThreeRanks) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  const SweepRun run = run_sweep(short_sweep(product_binary(), dir.file("r.json"),
                                             {"--ranks", "3", "--emulate-nodes", "-r", "2", "--collectives",
                                              "reducescatter,allgather,broadcast"}),
                                 dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  expect_all_measured(run.results, 3, "3 ranks");
  EXPECT_GE(count_cases(run.results, "collective", "reducescatter"),
            6u);  // at least 3 sizes, in and out of place
  for (const auto& c : run.results["cases"])
    if (c.value("collective", "") == "broadcast") {
      EXPECT_EQ(c.value("root", -1), 2) << describe(c);
    }
  expect_nccl_provenance(run.results, 1, true, false);
}

// NCCL_MIN_CTAS / NCCL_MAX_CTAS go through ncclConfig_t: each bound alone, and both. A lower bound
// alone leaves the upper one at NCCL's default, and init must accept that.
TEST(GpuSweep, CtaBoundsAloneOrTogetherInitAndMeasure) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  std::ofstream(dir.file("ctas.json")) << R"({"settings": [
    {"name": "min-ctas-only", "knobs": {"NCCL_MIN_CTAS": "4"}},
    {"name": "max-ctas-only", "knobs": {"NCCL_MAX_CTAS": "2"}},
    {"name": "ctas-2-to-8", "knobs": {"NCCL_MIN_CTAS": "2", "NCCL_MAX_CTAS": "8"}}]})";
  const SweepRun run = run_sweep(short_sweep(product_binary(), dir.file("r.json"),
                                             {"--ranks", "2", "--emulate-nodes", "--config",
                                              dir.file("ctas.json"), "--collectives", "allreduce,allgather"}),
                                 dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  expect_all_measured(run.results, 2, "CTA settings");
  for (const char* setting : {"default", "min-ctas-only", "max-ctas-only", "ctas-2-to-8"})
    EXPECT_GT(count_cases(run.results, "setting", setting), 0u) << setting;
}

// NCCL_NET=Socket named by the setting (not only by --emulate-nodes), and socket threading knobs.
TEST(GpuSweep, SocketTransportSettingsMeasure) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  std::ofstream(dir.file("socket.json")) << R"({"settings": [
    {"name": "socket", "knobs": {"NCCL_NET": "Socket"}},
    {"name": "socket-2x2", "knobs": {"NCCL_NET": "Socket", "NCCL_SOCKET_NTHREADS": "2", "NCCL_NSOCKS_PERTHREAD": "2"}}]})";
  const SweepRun run =
      run_sweep(short_sweep(product_binary(), dir.file("r.json"),
                            {"--ranks", "2", "--emulate-nodes", "--config", dir.file("socket.json"),
                             "--collectives", "allreduce,broadcast"}),
                dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  expect_all_measured(run.results, 2, "socket settings");
  for (const char* setting : {"socket", "socket-2x2"})
    EXPECT_GT(count_cases(run.results, "setting", setting), 0u) << setting;
  for (const auto& s : run.results["settings"])
    if (s.value("name", "") == "socket") {
      EXPECT_EQ(s["knobs"]["NCCL_NET"], "Socket");
    }
}

// As a one-node user runs it: no launcher, no flags beyond sizes, one worker per visible GPU.
TEST(GpuSweep, WithoutLauncherOneWorkerPerVisibleGpu) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  const SweepRun run =
      run_sweep(short_sweep(product_binary(), dir.file("r.json"), {}), dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err;
  ASSERT_TRUE(run.results.is_object()) << run.ran.err;
  nlohmann::json provenance = run.results["provenance"];
  const int gpus = static_cast<int>(provenance["nccl"]["supervisors"][0]["devices"]["devices"].size());
  ASSERT_GT(gpus, 0);
  expect_all_measured(run.results, gpus, "one worker per GPU");
  expect_nccl_provenance(run.results, 1, false, false);
  // One GPU, one rank: NCCL runs the collectives without its tuner, so nothing is recorded.
  if (gpus > 1)
    expect_nccl_choice_recorded(run.results);
  else
    expect_nccl_choice_not_asked(run.results);
}

}  // namespace
}  // namespace commtune
