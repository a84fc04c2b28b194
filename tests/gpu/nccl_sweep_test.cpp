// A real NCCL sweep on one GPU with emulated nodes, through the local control plane: every valid
// setting measures with #wrong 0, a hanging one is recorded and the sweep goes on. Skips, saying
// why, where no GPU is visible.
#include <gtest/gtest.h>

#include "../unit/nccl/run_commtune.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

// The test build commtune-faults: real NCCL workers, with a hang injected into one setting.
TEST(GpuSweep, EmulatedNodesMeasureCorrectDataAndSurviveAHang) {
  if (visible_gpu_count() == 0) GTEST_SKIP() << "no GPU visible: a real NCCL sweep needs one";
  ScratchDir dir;
  std::ofstream(dir.file("gpu.json")) << R"({"sweep": {"min_bytes": "8", "max_bytes": "1M", "factor": 32,
    "collectives": ["allreduce", "allgather", "broadcast"], "max_time": 0.1},
    "settings": [{"name": "ring-simple", "knobs": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "Simple"}},
                 {"name": "hang", "knobs": {"COMMTUNE_TEST_FAULT": "hang-case:1"}},
                 {"name": "ring-ll", "knobs": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "LL"}}]})";
  const Ran ran = run_program({COMMTUNE_FAULTS_BINARY, "sweep", "--backend", "nccl", "--ranks", "2", "--emulate-nodes", "--config",
                               dir.file("gpu.json"), "--init-timeout", "60", "--case-timeout", "20", "--out", dir.file("r.json")},
                              {"NCCL_SOCKET_IFNAME=lo"}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  for (const auto& c : doc.cases) {
    if (c.setting == "hang") continue;
    EXPECT_EQ(c.status, CaseStatus::Ok) << c.setting << " " << name_of(c.spec.collective) << " " << c.reason;
    EXPECT_EQ(c.wrong, 0) << c.setting;
  }
  EXPECT_EQ(find_case(doc, "hang")->status, CaseStatus::TimedOut);
  EXPECT_NE(doc.provenance["nccl"]["supervisors"][0]["devices"]["nccl_version"], "simulated");
}

}  // namespace
}  // namespace commtune
