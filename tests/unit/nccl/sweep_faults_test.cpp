// Sweep-level fault injection with the local control plane (no launcher): the test build
// commtune-simulated supervises simulated workers that hang, crash, write garbage or exit early.
#include <gtest/gtest.h>

#include <algorithm>

#include "run_commtune.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

TEST(LocalSweepFaults, EveryFaultIsRecordedAndTheSweepGoesOn) {
  ScratchDir dir;
  const Ran ran =
      run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--config", fault_config(),
                   "--ranks", "2", "--init-timeout", "2", "--case-timeout", "2", "--out", dir.file("r.json")},
                  {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_LT(ran.seconds, 60);
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.backend, BackendKind::Nccl);
  EXPECT_EQ(doc.cases.size(), 40u);
  expect_every_fault_recorded(doc);
  EXPECT_NE(ran.out.find("failed"), std::string::npos);  // the table counts failures too
}

// A raced NCCL sweep starts each setting's workers once: the simulated workers log each
// communicator init, and every case releases its buffers (a timing after a release would fail).
// Three settings the model times alike, with a 20% spread and `-n 20` (racing's rounds time 2,
// 3, 5 and 10 iterations): no round can settle them, so the race runs all its rounds, and with
// no winner there is no finalists' re-measure (which opens settings afresh on purpose).
TEST(LocalSweepRacing, EachSettingStartsItsWorkersOnceAcrossTheRounds) {
  ScratchDir dir;
  std::ofstream(dir.file("race.json")) << R"({"settings": [{"name": "ring", "knobs": {"NCCL_ALGO": "Ring"}},
    {"name": "simple", "knobs": {"NCCL_PROTO": "Simple"}}]})";
  const Ran ran = run_program(
      {COMMTUNE_SIMULATED_BINARY,
       "sweep",
       "--backend",
       "nccl",
       "--config",
       dir.file("race.json"),
       "--ranks",
       "2",
       "-b",
       "1K",
       "-e",
       "64K",
       "-f",
       "4",
       "-n",
       "20",
       "--collectives",
       "allreduce",
       "--no-report",
       "--out",
       dir.file("r.json")},
      {"COMMTUNE_SIMULATED_INIT_LOG=" + dir.file("inits.log"), "COMMTUNE_SIMULATED_JITTER=0.2"}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("racing round 3 of at most 3"), std::string::npos) << ran.out;
  EXPECT_EQ(ran.err.find("re-measuring"), std::string::npos) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.cases.size(), 3u * 4u * 2u);
  for (const CaseResult& c : doc.cases)
    EXPECT_EQ(c.status, CaseStatus::Ok) << c.setting << " " << c.spec.bytes << ": " << c.reason;
  // The default setting and the two of the config, two workers each, each started once.
  const std::string log = slurp(dir.file("inits.log"));
  const std::vector<std::string> inits = words(log);
  EXPECT_EQ(std::count(inits.begin(), inits.end(), "rank"), 3 * 2) << log;
}

// Each worker's host thread reports its CPU and wall seconds over every timed batch; the sweep
// keeps each rank's share of the CPU per case (in the results file) and names the rank that the
// simulated machine starves (COMMTUNE_SIMULATED_CPU_SHARE) as the straggler, and no rank of a
// healthy run.
TEST(LocalSweepStraggler, AWorkerStarvedOfTheCpuIsNamedAndItsSharesAreKept) {
  for (const bool starved : {true, false}) {
    ScratchDir dir;
    std::vector<std::string> environment;
    if (starved) environment.push_back("COMMTUNE_SIMULATED_CPU_SHARE=2:0.3");
    const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--ranks", "4",
                                 "--emulate-nodes", "-b", "1K", "-e", "16K", "-f", "4", "--collectives",
                                 "allreduce", "--no-report", "--out", dir.file("r.json")},
                                environment, dir);
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    EXPECT_EQ(ran.out.find("straggler rank 2") != std::string::npos, starved) << ran.out;
    EXPECT_EQ(ran.out.find("straggler"), starved ? ran.out.find("straggler rank 2") : std::string::npos)
        << ran.out;
    const ResultsDocument doc = load_results(dir.file("r.json"));
    ASSERT_EQ(doc.cases.size(), 3u * 2u);
    for (const CaseResult& c : doc.cases) {
      ASSERT_EQ(c.cpu_share.size(), 4u) << c.spec.bytes;
      EXPECT_LT(c.cpu_share[2], starved ? 0.4 : 1.0);
      EXPECT_GT(c.cpu_share[2], starved ? 0.2 : 0.85);
      EXPECT_GT(c.cpu_share[0], 0.85);
      EXPECT_FALSE(c.arrivals.has_value());  // a GPU queue has no host-side arrival to time
    }
  }
}

TEST(LocalSweepFaults, AnUnknownAlgorithmTokenIsRefusedBeforeAnythingStarts) {
  ScratchDir dir;
  std::ofstream(dir.file("bad.json")) << R"({"settings": [{"name": "typo", "knobs": {"NCCL_ALGO": "Rnig"}},
    {"name": "hang", "knobs": {"COMMTUNE_TEST_FAULT": "hang-init"}}]})";
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--config",
                               dir.file("bad.json"), "--out", dir.file("r.json")},
                              {}, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("setting 'typo'"), std::string::npos) << ran.err;
  EXPECT_NE(ran.err.find("Rnig"), std::string::npos) << ran.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
  EXPECT_LT(ran.seconds, 5);  // the hanging setting was never started
}

TEST(LocalSweepFaults, MoreRanksThanGpusNeedEmulatedNodes) {
  ScratchDir dir;
  const Ran refused = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--ranks", "4",
                                   "-b", "8", "-e", "8", "--out", dir.file("r.json")},
                                  {}, dir);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--emulate-nodes"), std::string::npos) << refused.err;
  const Ran emulated = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--ranks", "4",
                                    "--emulate-nodes", "-b", "8", "-e", "64", "--out", dir.file("e.json")},
                                   {}, dir);
  ASSERT_EQ(emulated.exit_code, 0) << emulated.err;
  const ResultsDocument doc = load_results(dir.file("e.json"));
  EXPECT_EQ(doc.provenance["nccl"]["emulated_nodes"], true);
  EXPECT_TRUE(doc.provenance.contains("labels"));
  EXPECT_EQ(doc.cases.front().nranks, 4);
}

// `--groups` on the NCCL backend: each worker splits one communicator per spec from its world one
// (the simulated engine models each on its own ranks), all groups run each case at once, and the
// case keeps every group's figures; a group's all-reduce over 2 ranks moves less per rank than the
// world's over 4 (bus factor 1 against 1.5), so at 64 MiB the groups are faster.
TEST(LocalSweepGroups, EachGroupRunsOnItsOwnSplitCommunicator) {
  ScratchDir dir;
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--ranks", "4",
                               "--emulate-nodes", "-b", "64M", "-e", "64M", "--collectives", "allreduce",
                               "--groups", "world,DIV 2", "--no-report", "--out", dir.file("r.json")},
                              {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  const auto grouped = std::find_if(doc.cases.begin(), doc.cases.end(),
                                    [](const CaseResult& r) { return !r.spec.group.is_world(); });
  const auto world = std::find_if(doc.cases.begin(), doc.cases.end(),
                                  [](const CaseResult& r) { return r.spec.group.is_world(); });
  ASSERT_NE(grouped, doc.cases.end());
  ASSERT_NE(world, doc.cases.end());
  ASSERT_EQ(grouped->status, CaseStatus::Ok) << grouped->reason;
  EXPECT_EQ(grouped->spec.group.name(), "DIV 2");
  EXPECT_EQ(grouped->nranks, 2);
  ASSERT_TRUE(grouped->groups.has_value());
  ASSERT_EQ(grouped->groups->groups.size(), 2u);
  EXPECT_EQ(grouped->groups->groups[0].ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(grouped->groups->groups[1].ranks, (std::vector<int>{2, 3}));
  EXPECT_EQ(grouped->groups->shape, "2x2x1");
  EXPECT_FALSE(world->groups.has_value());
  EXPECT_EQ(world->nranks, 4);
  EXPECT_LT(grouped->time_us.median, world->time_us.median * 0.8);
  EXPECT_NEAR(grouped->groups->busbw_sum_gbps,
              grouped->groups->groups[0].busbw_gbps + grouped->groups->groups[1].busbw_gbps, 1e-6);
}

// A worker that hangs in a grouped case: the case is recorded as timed out, and its reason names
// the group spec and the group of the rank blamed (rank 3: the second DIV 2 group, ranks 2 and 3).
TEST(LocalSweepGroups, AHangNamesTheGroupOfTheRankBlamed) {
  ScratchDir dir;
  std::ofstream(dir.file("hang.json"))
      << R"({"settings": [{"name": "hang", "knobs": {"COMMTUNE_TEST_FAULT": "hang-case:3"}}]})";
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY,
                               "sweep",
                               "--backend",
                               "nccl",
                               "--ranks",
                               "4",
                               "--emulate-nodes",
                               "--config",
                               dir.file("hang.json"),
                               "-b",
                               "1K",
                               "-e",
                               "1K",
                               "--collectives",
                               "allreduce",
                               "--groups",
                               "DIV 2",
                               "--case-timeout",
                               "2",
                               "--no-report",
                               "--out",
                               dir.file("r.json")},
                              {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  const auto hung = std::find_if(doc.cases.begin(), doc.cases.end(),
                                 [](const CaseResult& r) { return r.setting == "hang"; });
  ASSERT_NE(hung, doc.cases.end());
  EXPECT_EQ(hung->status, CaseStatus::TimedOut);
  EXPECT_NE(hung->reason.find("group spec 'DIV 2': rank 3 is in group 1 of 2, ranks 2 3"), std::string::npos)
      << hung->reason;
}

TEST(NoGpu, BackendNcclSaysSoAndExits2) {
  ScratchDir dir;
  const Ran info = run_program({COMMTUNE_BINARY, "info"}, {}, dir);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("nccl runtime:"), std::string::npos) << info.out;
  if (info.out.find("visible GPUs: 0") == std::string::npos) GTEST_SKIP() << "this machine has a GPU";
  const Ran ran = run_program({COMMTUNE_BINARY, "sweep", "--backend", "nccl", "-b", "8", "-e", "8"}, {}, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("--backend nccl"), std::string::npos) << ran.err;
}

// The commtune executable holds no test double: no fault names, no fault knob, no simulated GPU.
TEST(ProductBinary, ContainsNoTestDoubles) {
  const std::string binary = slurp(COMMTUNE_BINARY);
  ASSERT_GT(binary.size(), 100000u);
  for (const char* marker :
       {"COMMTUNE_TEST_FAULT", "supervisor-hang", "crash-init", "simulated GPU", "simulated workers"})
    EXPECT_EQ(binary.find(marker), std::string::npos) << marker;
  const std::string test_build = slurp(COMMTUNE_SIMULATED_BINARY);
  EXPECT_NE(test_build.find("COMMTUNE_TEST_FAULT"),
            std::string::npos);  // the check above can see such strings
}

// A fault knob in a config of a normal run is refused before anything starts (exit 2).
TEST(ProductBinary, RefusesTheFaultKnob) {
  ScratchDir dir;
  std::ofstream(dir.file("f.json"))
      << R"({"settings": [{"name": "hang", "knobs": {"COMMTUNE_TEST_FAULT": "hang-init"}}]})";
  const Ran ran = run_program({COMMTUNE_BINARY, "sweep", "--backend", "mpi", "--config", dir.file("f.json"),
                               "--out", dir.file("r.json")},
                              {}, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("COMMTUNE_TEST_FAULT"), std::string::npos) << ran.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
}

// Every output of a run with simulated workers says so: banner, table, results, tune summary,
// recommendation, and each exported file.
TEST(SimulatedRun, IsLabelledInEveryOutput) {
  ScratchDir dir;
  std::ofstream(dir.file("two.json")) << R"({"sweep": {"min_bytes": "1K", "max_bytes": "64K", "factor": 8,
    "collectives": ["allreduce"], "placements": ["out-of-place"], "min_samples": 5, "min_time": 0, "max_time": 0.02},
    "settings": [{"name": "tree", "knobs": {"NCCL_ALGO": "Tree"}}]})";
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--ranks", "2",
                               "--config", dir.file("two.json"), "--out", dir.file("r.json")},
                              {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.err.find("simulated workers"), std::string::npos) << ran.err;
  EXPECT_NE(ran.out.find("# label: simulated workers"), std::string::npos) << ran.out;
  EXPECT_NE(slurp(dir.file("r.json")).find("simulated workers"), std::string::npos);
  EXPECT_NE(slurp(dir.file("r.tune.json")).find("simulated workers"), std::string::npos);
  const Ran tuned = run_program({COMMTUNE_BINARY, "tune", dir.file("r.json")}, {}, dir);
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  EXPECT_NE(tuned.out.find("# label: simulated workers"), std::string::npos) << tuned.out;
  std::filesystem::create_directory(dir.file("out"));
  const Ran exported = run_program(
      {COMMTUNE_BINARY, "export", dir.file("r.tune.json"), "--format", "all", "--out-dir", dir.file("out")},
      {}, dir);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::size_t files = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir.file("out"))) {
    ++files;
    EXPECT_NE(slurp(file.path().string()).find("simulated workers"), std::string::npos) << file.path();
  }
  EXPECT_GT(files, 1u);
}

}  // namespace
}  // namespace commtune
