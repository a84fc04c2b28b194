// `commtune doctor --backend nccl` on a real GPU, no launcher: the pairwise map through NCCL
// workers (ncclSend/ncclRecv) between the GPUs of this node, or, with one GPU, between two ranks
// on it as emulated nodes (loopback sockets), then its small sweep; and a worker hung during the map
// (commtune-faults) ends it with its reason. Assertions read the doctor's JSON (shape, positive figures,
// reasons), never how fast a link is. Skips, saying why, where no GPU is visible.
#include <gtest/gtest.h>

#include <filesystem>

#include "gpu_sweep.hpp"

namespace commtune {
namespace {

using namespace commtune::gpu_testing;
using commtune::testing::Ran;
using commtune::testing::ScratchDir;

// Two GPUs or more: one rank per GPU (the node's real paths); one GPU: two emulated nodes on it.
// A round's deadline: far above a quick round on a GPU; 1 s for the simulated dry run (CI time).
std::vector<std::string> doctor_argv(const std::string& binary, const std::string& json) {
  std::vector<std::string> argv{binary,
                                "doctor",
                                "--backend",
                                "nccl",
                                "--quick",
                                "--init-timeout",
                                "60",
                                "--case-timeout",
                                simulated() ? "1" : "10",
                                "--json",
                                json};
  if (simulated() || visible_gpu_count() < 2)
    for (const char* a : {"--ranks", "2", "--emulate-nodes"}) argv.emplace_back(a);
  return argv;
}

nlohmann::json read_doctor(const std::string& path) {
  return std::filesystem::exists(path) ? read_results(path) : nlohmann::json();
}

bool has_finding(const nlohmann::json& doc, const std::string& id) {
  for (const auto& f : doc["findings"])
    if (f.value("id", "") == id) return true;
  return false;
}

TEST(GpuDoctor, TheNcclPairwiseMapMeasuresEveryPairOfThisNode) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  const Ran ran =
      testing::run_program(doctor_argv(product_binary(), dir.file("d.json")), sweep_environment(), dir);
  ASSERT_TRUE(ran.exit_code == 0 || ran.exit_code == 1) << ran.err;  // the live machine may need attention
  const nlohmann::json doc = read_doctor(dir.file("d.json"));
  ASSERT_TRUE(doc.is_object()) << ran.err;
  EXPECT_EQ(doc.value("backend", ""), "nccl");
  EXPECT_FALSE(has_finding(doc, "pairwise-map-failed")) << doc.dump(1);
  EXPECT_FALSE(has_finding(doc, "sweep-case-failed")) << doc.dump(1);  // the small sweep measured every size
  const nlohmann::json& map = doc["pairwise"];
  ASSERT_TRUE(map.is_object()) << doc.dump(1);
  const std::size_t n = map["members"].size();
  ASSERT_GE(n, 2u);
  EXPECT_EQ(map["member"], "rank");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      ASSERT_TRUE(map["gbps"][i][j].is_number()) << i << "->" << j;
      EXPECT_GT(map["gbps"][i][j].get<double>(), 0.0) << i << "->" << j;
      EXPECT_GT(map["latency_us"][i][j].get<double>(), 0.0) << i << "->" << j;
    }
  EXPECT_NE(ran.out.find("# pairwise bandwidth"), std::string::npos) << ran.out;
}

TEST(GpuDoctor, AWorkerHungInTheMapEndsItWithItsReason) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  ScratchDir dir;
  std::vector<std::string> environment = sweep_environment();
  environment.push_back("COMMTUNE_TEST_FAULT=hang-case:1");
  const Ran ran = testing::run_program(doctor_argv(faults_binary(), dir.file("d.json")), environment, dir);
  EXPECT_EQ(ran.exit_code, 1) << ran.err;
  EXPECT_LT(ran.seconds, 120);
  const nlohmann::json doc = read_doctor(dir.file("d.json"));
  ASSERT_TRUE(doc.is_object()) << ran.err;
  EXPECT_TRUE(has_finding(doc, "pairwise-map-failed")) << doc.dump(1);
  EXPECT_NE(doc.value("pairwise_failure", "").find("rank 1 worker did not finish pairwise map round 1"),
            std::string::npos)
      << doc.dump(1);
}

}  // namespace
}  // namespace commtune
