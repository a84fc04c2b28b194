// `commtune doctor` on the NCCL backend, end to end with the test build commtune-simulated
// (simulated workers, no GPU, no launcher): the pairwise map and the small sweep in the terminal,
// the map in the --json, a
// simulated slow link named as the slow pair, a hung or crashed worker during the map reported
// with its reason (and no hang), the NCCL flags refused on the MPI backend.
#include <gtest/gtest.h>

#include "run_commtune.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

std::string healthy_tree() { return std::string(COMMTUNE_SOURCE_DIR) + "/tests/fixtures/systems/pcie-4gpu"; }

// The live environment's NCCL fast-path switches must not become findings of their own.
std::vector<std::string> quiet_environment(std::vector<std::string> more) {
  for (const char* v : {"NCCL_P2P_DISABLE=0", "NCCL_SHM_DISABLE=0", "NCCL_IB_DISABLE=0"}) more.push_back(v);
  return more;
}

struct Doctor {
  Ran ran;
  nlohmann::json doc;
};

Doctor run_doctor(const ScratchDir& dir, const std::vector<std::string>& environment,
                  const std::vector<std::string>& more = {}) {
  std::vector<std::string> argv{COMMTUNE_SIMULATED_BINARY,
                                "doctor",
                                "--backend",
                                "nccl",
                                "--quick",
                                "--ranks",
                                "4",
                                "--emulate-nodes",
                                "--case-timeout",
                                "1",
                                "--init-timeout",
                                "5",
                                "--system-root",
                                healthy_tree(),
                                "--json",
                                dir.file("d.json")};
  argv.insert(argv.end(), more.begin(), more.end());
  Doctor d{run_program(argv, quiet_environment(environment), dir), nullptr};
  if (std::filesystem::exists(dir.file("d.json"))) d.doc = nlohmann::json::parse(slurp(dir.file("d.json")));
  return d;
}

std::vector<nlohmann::json> findings_with(const nlohmann::json& doc, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (const auto& f : doc["findings"])
    if (f["id"] == id) out.push_back(f);
  return out;
}

TEST(NcclDoctor, TheMapHasEveryPairAndAHealthyMachineExits0) {
  ScratchDir dir;
  const Doctor d = run_doctor(dir, {});
  ASSERT_EQ(d.ran.exit_code, 0) << d.ran.out << d.ran.err;
  EXPECT_LT(d.ran.seconds, 20);
  EXPECT_NE(d.ran.out.find("pairwise map of 4 ranks through NCCL workers"), std::string::npos) << d.ran.out;
  EXPECT_NE(d.ran.out.find("# pairwise bandwidth (GB/s per direction, 256 KiB messages"), std::string::npos)
      << d.ran.out;
  EXPECT_NE(d.ran.out.find("# pairwise latency"), std::string::npos) << d.ran.out;
  EXPECT_NE(d.ran.out.find("# commtune sweep: backend nccl, 4 ranks"), std::string::npos)
      << d.ran.out;  // the small sweep
  EXPECT_NE(d.ran.out.find("# cases: 5 measured, 0 with wrong data, 0 failed"), std::string::npos)
      << d.ran.out;
  ASSERT_TRUE(d.doc.is_object());
  EXPECT_EQ(d.doc["backend"], "nccl");
  EXPECT_EQ(d.doc["healthy"], true);
  const nlohmann::json& map = d.doc["pairwise"];
  EXPECT_EQ(map["member"], "rank");
  EXPECT_EQ(map["members"], nlohmann::json({"rank 0", "rank 1", "rank 2", "rank 3"}));
  ASSERT_EQ(map["gbps"].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      if (i == j)
        EXPECT_TRUE(map["gbps"][i][j].is_null());
      else
        EXPECT_GT(map["gbps"][i][j].get<double>(), 0.0) << i << "->" << j;
    }
  EXPECT_TRUE(findings_with(d.doc, "slow-pair").empty());
  EXPECT_TRUE(findings_with(d.doc, "straggler").empty());
}

// The doctor's small NCCL sweep names a worker starved of the CPU, from its share over the
// timed batches (as the MPI doctor does from its ranks').
TEST(NcclDoctor, AWorkerStarvedOfTheCpuIsTheStraggler) {
  ScratchDir dir;
  const Doctor d = run_doctor(dir, {"COMMTUNE_SIMULATED_CPU_SHARE=1:0.25"});
  const auto stragglers = findings_with(d.doc, "straggler");
  ASSERT_EQ(stragglers.size(), 1u) << d.doc.dump(1);
  EXPECT_EQ(stragglers[0]["subject"].get<std::string>().rfind("rank 1", 0), 0u) << stragglers[0].dump();
  EXPECT_NE(stragglers[0]["evidence"].get<std::string>().find("on the CPU for 25% of its timed loops"),
            std::string::npos)
      << stragglers[0].dump();
  EXPECT_TRUE(findings_with(d.doc, "slow-node").empty());
}

TEST(NcclDoctor, ASimulatedSlowLinkIsTheSlowPairAndNothingElse) {
  ScratchDir dir;
  const Doctor d = run_doctor(dir, {"COMMTUNE_SIMULATED_SLOW_LINK=0-2"});
  ASSERT_EQ(d.ran.exit_code, 1) << d.ran.out << d.ran.err;
  const auto pairs = findings_with(d.doc, "slow-pair");
  ASSERT_EQ(pairs.size(), 1u) << d.doc.dump(1);
  EXPECT_EQ(pairs[0]["subject"], "rank 0 <-> rank 2");
  EXPECT_TRUE(findings_with(d.doc, "slow-node").empty());
  EXPECT_NE(d.ran.out.find("[warning] slow-pair rank 0 <-> rank 2"), std::string::npos) << d.ran.out;
}

TEST(NcclDoctor, ASimulatedSlowGpuIsTheSlowNodeConfirmedByASecondMap) {
  ScratchDir dir;
  const Doctor d = run_doctor(dir, {"COMMTUNE_SIMULATED_SLOW_RANK=3"});
  ASSERT_EQ(d.ran.exit_code, 1) << d.ran.out << d.ran.err;
  const auto nodes = findings_with(d.doc, "slow-node");
  ASSERT_EQ(nodes.size(), 1u) << d.doc.dump(1);
  EXPECT_EQ(nodes[0]["subject"], "rank 3");
  EXPECT_NE(nodes[0]["evidence"].get<std::string>().find("confirmed by a second map"), std::string::npos);
}

TEST(NcclDoctor, AHungWorkerEndsTheMapWithItsReason) {
  ScratchDir dir;
  const Doctor d = run_doctor(dir, {"COMMTUNE_TEST_FAULT=hang-case:3"});
  ASSERT_EQ(d.ran.exit_code, 1) << d.ran.out << d.ran.err;
  EXPECT_LT(d.ran.seconds, 20);
  const auto failed = findings_with(d.doc, "pairwise-map-failed");
  ASSERT_EQ(failed.size(), 1u) << d.doc.dump(1);
  EXPECT_NE(failed[0]["evidence"].get<std::string>().find("rank 3 worker did not finish pairwise map round"),
            std::string::npos)
      << failed[0].dump();
  EXPECT_FALSE(d.doc.contains("pairwise"));
  EXPECT_FALSE(
      findings_with(d.doc, "sweep-case-failed").empty());  // the fault hangs the sweep's first case too
  EXPECT_NE(d.doc.value("pairwise_failure", "").find("within 1 s (hung; workers killed)"), std::string::npos)
      << d.doc.dump(1);
}

TEST(NcclDoctor, ACrashedWorkerEndsTheMapWithItsSignal) {
  ScratchDir dir;
  const Doctor d = run_doctor(dir, {"COMMTUNE_TEST_FAULT=crash-case:1"});
  ASSERT_EQ(d.ran.exit_code, 1) << d.ran.out << d.ran.err;
  const auto failed = findings_with(d.doc, "pairwise-map-failed");
  ASSERT_EQ(failed.size(), 1u) << d.doc.dump(1);
  EXPECT_NE(failed[0]["evidence"].get<std::string>().find("rank 1 worker ended without answering"),
            std::string::npos)
      << failed[0].dump();
  EXPECT_NE(failed[0]["evidence"].get<std::string>().find("killed by signal 11"), std::string::npos)
      << failed[0].dump();
}

TEST(NcclDoctor, NcclFlagsAreRefusedOnTheMpiBackend) {
  ScratchDir dir;
  const Ran ran =
      run_program({COMMTUNE_SIMULATED_BINARY, "doctor", "--backend", "mpi", "--ranks", "4"}, {}, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("--ranks is an NCCL backend option"), std::string::npos) << ran.err;
  const Ran shared = run_program({COMMTUNE_SIMULATED_BINARY, "doctor", "--backend", "nccl", "--ranks", "4",
                                  "--system-root", healthy_tree()},
                                 {}, dir);
  EXPECT_EQ(shared.exit_code, 2);  // 4 ranks on 2 simulated GPUs need --emulate-nodes
  EXPECT_NE(shared.err.find("--emulate-nodes"), std::string::npos) << shared.err;
}

}  // namespace
}  // namespace commtune
