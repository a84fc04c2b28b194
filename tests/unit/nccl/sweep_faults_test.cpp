// Sweep-level fault injection with the local control plane (no launcher): the real commtune
// binary supervises simulated workers that hang, crash, write garbage or exit early.
#include <gtest/gtest.h>

#include "run_commtune.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

const std::vector<std::string> kFake{"COMMTUNE_FAKE_WORKER=1"};

TEST(LocalSweepFaults, EveryFaultIsRecordedAndTheSweepGoesOn) {
  ScratchDir dir;
  const Ran ran = run_program({COMMTUNE_BINARY, "sweep", "--backend", "nccl", "--config", fault_config(), "--ranks", "2",
                               "--init-timeout", "2", "--case-timeout", "2", "--out", dir.file("r.json")},
                              kFake, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_LT(ran.seconds, 60);
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.backend, "nccl");
  EXPECT_EQ(doc.cases.size(), 40u);
  expect_every_fault_recorded(doc);
  EXPECT_NE(ran.out.find("failed"), std::string::npos);  // the table counts failures too
}

TEST(LocalSweepFaults, AnUnknownAlgorithmTokenIsRefusedBeforeAnythingStarts) {
  ScratchDir dir;
  std::ofstream(dir.file("bad.json")) << R"({"settings": [{"name": "typo", "knobs": {"NCCL_ALGO": "Rnig"}},
    {"name": "hang", "knobs": {"COMMTUNE_TEST_FAULT": "hang-init"}}]})";
  const Ran ran = run_program({COMMTUNE_BINARY, "sweep", "--backend", "nccl", "--config", dir.file("bad.json"), "--out",
                               dir.file("r.json")},
                              kFake, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("setting 'typo'"), std::string::npos) << ran.err;
  EXPECT_NE(ran.err.find("Rnig"), std::string::npos) << ran.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
  EXPECT_LT(ran.seconds, 5);  // the hanging setting was never started
}

TEST(LocalSweepFaults, MoreRanksThanGpusNeedEmulatedNodes) {
  ScratchDir dir;
  const Ran refused = run_program({COMMTUNE_BINARY, "sweep", "--backend", "nccl", "--ranks", "4", "-b", "8", "-e", "8",
                                   "--out", dir.file("r.json")},
                                  kFake, dir);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--emulate-nodes"), std::string::npos) << refused.err;
  const Ran emulated = run_program({COMMTUNE_BINARY, "sweep", "--backend", "nccl", "--ranks", "4", "--emulate-nodes", "-b",
                                    "8", "-e", "64", "--out", dir.file("e.json")},
                                   kFake, dir);
  ASSERT_EQ(emulated.exit_code, 0) << emulated.err;
  const ResultsDocument doc = load_results(dir.file("e.json"));
  EXPECT_EQ(doc.provenance["nccl"]["emulated_nodes"], true);
  EXPECT_TRUE(doc.provenance.contains("labels"));
  EXPECT_EQ(doc.cases.front().nranks, 4);
}

TEST(NoGpu, BackendNcclSaysSoAndExits2) {
  const char* fake = std::getenv("COMMTUNE_FAKE_WORKER");
  if (fake != nullptr && std::string(fake) == "1") GTEST_SKIP() << "fake workers requested in the test environment";
  ScratchDir dir;
  const Ran info = run_program({COMMTUNE_BINARY, "info"}, {}, dir);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("nccl runtime:"), std::string::npos) << info.out;
  if (info.out.find("visible GPUs: 0") == std::string::npos) GTEST_SKIP() << "this machine has a GPU";
  const Ran ran = run_program({COMMTUNE_BINARY, "sweep", "--backend", "nccl", "-b", "8", "-e", "8"}, {}, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("--backend nccl"), std::string::npos) << ran.err;
}

}  // namespace
}  // namespace commtune
