// NCCL supervisors under mpirun -np 2: two supervisors agree on every fault, a supervisor peer that
// dies or hangs is reported instead of being waited on forever, and emulated nodes get the host
// copy ceiling measured with every supervisor past MPI_Init.
#include <gtest/gtest.h>

#include "run_commtune.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

std::vector<std::string> mpirun_np2() {
  const char* mpirun = std::getenv("COMMTUNE_MPIRUN");
  std::vector<std::string> argv = words(mpirun ? mpirun : "");
  if (argv.empty()) return argv;
  for (const char* a : {"-np", "2", COMMTUNE_SIMULATED_BINARY}) argv.emplace_back(a);
  return argv;
}

std::vector<std::string> with(std::vector<std::string> argv, const std::vector<std::string>& more) {
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

TEST(MpiSweepFaults, TwoSupervisorsRecordEveryFaultAlike) {
  const auto mpirun = mpirun_np2();
  if (mpirun.empty()) GTEST_SKIP() << "COMMTUNE_MPIRUN is not set (run through ctest)";
  ScratchDir dir;
  const Ran ran =
      run_program(with(mpirun, {"sweep", "--backend", "nccl", "--config", fault_config(), "--init-timeout",
                                "2", "--case-timeout", "2", "--out", dir.file("r.json")}),
                  {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.provenance["layout"]["nranks"], 2);
  expect_every_fault_recorded(doc);
}

void write_peer_config(const std::string& path, const std::string& fault) {
  std::ofstream(path) << R"({"sweep": {"min_bytes": "64", "max_bytes": "64", "collectives": ["allreduce"],
    "placements": ["out-of-place"], "min_samples": 5, "min_time": 0, "max_time": 0.05},
    "settings": [{"name": "healthy"}, {"name": "peer", "knobs": {"COMMTUNE_TEST_FAULT": ")" +
                             fault + R"("}}]})";
}

// The run ends, non-zero, within bounds; the finished cases are in a valid results file. The sweep
// is exhaustive: mpirun kills every rank when one exits, and a racing sweep holds a case in memory
// until the race at its size ends (docs/racing.md), so only an exhaustive sweep has it on disk.
void expect_peer_loss_reported(const std::string& fault, const std::string& message) {
  const auto mpirun = mpirun_np2();
  if (mpirun.empty()) GTEST_SKIP() << "COMMTUNE_MPIRUN is not set (run through ctest)";
  ScratchDir dir;
  write_peer_config(dir.file("peer.json"), fault);
  const Ran ran = run_program(
      with(mpirun, {"sweep", "--backend", "nccl", "--config", dir.file("peer.json"), "--exhaustive",
                    "--init-timeout", "1", "--case-timeout", "1", "--out", dir.file("r.json")}),
      {}, dir);
  EXPECT_NE(ran.exit_code, 0);
  EXPECT_LT(ran.seconds, 60);
  EXPECT_NE((ran.err + ran.out).find(message), std::string::npos) << ran.err << ran.out;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_FALSE(doc.complete);
  const CaseResult* healthy = find_case(doc, "healthy");
  ASSERT_NE(healthy, nullptr);
  EXPECT_EQ(healthy->status, CaseStatus::Ok);
}

TEST(MpiSweepFaults, APeerSupervisorThatDiesIsReportedNotWaitedOn) {
  expect_peer_loss_reported("supervisor-exit:1", "test fault supervisor-exit:1");
}

TEST(MpiSweepFaults, APeerSupervisorThatHangsEndsTheJobAtTheControlDeadline) {
  expect_peer_loss_reported("supervisor-hang:1", "a peer supervisor died or hangs");
}

// With --emulate-nodes the path is the host's, so its ceiling is the host copy, measured by the first
// supervisor of the node once both are past MPI_Init (launch/nccl_control) and gathered to rank 0.
TEST(MpiNcclSweep, EmulatedNodesGetTheHostCopyCeiling) {
  const auto mpirun = mpirun_np2();
  if (mpirun.empty()) GTEST_SKIP() << "COMMTUNE_MPIRUN is not set (run through ctest)";
  ScratchDir dir;
  const Ran ran =
      run_program(with(mpirun, {"sweep", "--backend", "nccl", "--emulate-nodes", "-b", "8", "-e", "8",
                                "--collectives", "allreduce", "--no-report", "--out", dir.file("r.json")}),
                  {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  ASSERT_TRUE(doc.provenance.contains("ceiling")) << doc.provenance.dump();
  EXPECT_EQ(doc.provenance["ceiling"]["path"].get<std::string>().rfind("host memory", 0), 0u);
  EXPECT_EQ(doc.provenance["ceiling"]["basis"].get<std::string>().rfind("measured", 0), 0u);
  EXPECT_GT(doc.provenance["ceiling"]["gbps"].get<double>(), 0.0);
}

// The NCCL doctor under mpirun -np 2 on one node: each supervisor's worker is one member of the
// map; a worker hung in a round ends the map on both supervisors with the same reason.
TEST(MpiNcclDoctor, TwoSupervisorsMapTheirWorkersAndAgreeOnAHang) {
  const auto mpirun = mpirun_np2();
  if (mpirun.empty()) GTEST_SKIP() << "COMMTUNE_MPIRUN is not set (run through ctest)";
  const std::string tree = std::string(COMMTUNE_SOURCE_DIR) + "/tests/fixtures/systems/pcie-4gpu";
  ScratchDir dir;
  const Ran ran = run_program(with(mpirun, {"doctor", "--backend", "nccl", "--quick", "--system-root", tree,
                                            "--json", dir.file("d.json")}),
                              {}, dir);
  ASSERT_TRUE(ran.exit_code == 0 || ran.exit_code == 1) << ran.err;
  const nlohmann::json doc = nlohmann::json::parse(slurp(dir.file("d.json")));
  EXPECT_EQ(doc["pairwise"]["members"], nlohmann::json({"rank 0", "rank 1"})) << doc.dump(1);
  EXPECT_GT(doc["pairwise"]["gbps"][0][1].get<double>(), 0.0);
  EXPECT_GT(doc["pairwise"]["gbps"][1][0].get<double>(), 0.0);
  const Ran hung = run_program(with(mpirun, {"doctor", "--backend", "nccl", "--quick", "--system-root", tree,
                                             "--case-timeout", "1", "--json", dir.file("h.json")}),
                               {"COMMTUNE_TEST_FAULT=hang-case:1"}, dir);
  EXPECT_EQ(hung.exit_code, 1) << hung.err;
  EXPECT_LT(hung.seconds, 30);
  const nlohmann::json failed = nlohmann::json::parse(slurp(dir.file("h.json")));
  EXPECT_NE(failed.value("pairwise_failure", "")
                .find("rank 1 worker did not finish pairwise map round 1 of 1 within 1 s"),
            std::string::npos)
      << failed.dump(1);
}

}  // namespace
}  // namespace commtune
