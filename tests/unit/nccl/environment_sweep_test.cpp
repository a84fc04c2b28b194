// What the user's environment does to a sweep, on simulated NCCL workers. Started by torchrun
// (launch/launcher_check), as a user of PyTorch would try it: every process torchrun started stops
// before anything runs or is written, only RANK 0 says why; one process alone is a launcher-free
// run. A knob the sweep varies exported in the shell (knobs/environment_knobs): the sweep runs and
// its plan says which settings ran with the environment's value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "run_commtune.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

std::vector<std::string> torchrun_worker(int rank, int world) {
  return {"TORCHELASTIC_RUN_ID=t1",
          "WORLD_SIZE=" + std::to_string(world),
          "LOCAL_WORLD_SIZE=" + std::to_string(world),
          "RANK=" + std::to_string(rank),
          "LOCAL_RANK=" + std::to_string(rank),
          "MASTER_ADDR=127.0.0.1",
          "MASTER_PORT=29500"};
}

TEST(Torchrun, EveryWorkerStopsBeforeAnythingStartsAndOnlyRankZeroSaysWhy) {
  for (const char* command : {"sweep", "doctor"})
    for (const int rank : {0, 1}) {
      if (rank == 1 && std::string(command) == "doctor") continue;  // a silent rank waits 10 s (cli/app)
      ScratchDir dir;
      std::vector<std::string> argv = {COMMTUNE_SIMULATED_BINARY, command, "--backend", "nccl"};
      if (std::string(command) == "sweep")
        argv.insert(argv.end(), {"-b", "8", "-e", "8", "--out", dir.file("r.json")});
      else
        argv.insert(argv.end(), {"--quick", "--json", dir.file("r.json")});
      const Ran ran = run_program(argv, torchrun_worker(rank, 2), dir);
      EXPECT_EQ(ran.exit_code, 2) << command << rank << ran.err;
      EXPECT_EQ(ran.err.find("torchrun") != std::string::npos, rank == 0) << command << rank << ran.err;
      EXPECT_TRUE(ran.out.empty()) << ran.out;
      EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
    }
}

TEST(Torchrun, OneProcessAloneRunsAsALocalRun) {
  ScratchDir dir;
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "-b", "8", "-e", "8",
                               "--collectives", "allreduce", "--no-report", "--out", dir.file("r.json")},
                              torchrun_worker(0, 1), dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_FALSE(load_results(dir.file("r.json")).cases.empty());
}

TEST(EnvironmentKnobs, AKnobTheSweepVariesSetInTheShellIsAWarningNamingWhoRunsWithIt) {
  ScratchDir dir;
  std::ofstream(dir.file("c.json")) << R"({"settings": [{"name": "ring", "knobs": {"NCCL_ALGO": "Ring"}},
    {"name": "ll", "knobs": {"NCCL_PROTO": "LL"}}]})";
  const Ran ran = run_program(
      {COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--config", dir.file("c.json"), "-b", "8",
       "-e", "8", "--collectives", "allreduce", "--no-report", "--out", dir.file("r.json")},
      {"NCCL_ALGO=Tree", "NCCL_DEBUG=WARN"}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  std::vector<std::string> about;  // the results file's warnings, the plan's
  for (const auto& w :
       nlohmann::json::parse(slurp(dir.file("r.json"))).value("warnings", nlohmann::json::array()))
    if (w.get<std::string>().find("the environment sets") != std::string::npos) about.push_back(w);
  ASSERT_EQ(about.size(), 1u) << ran.out;  // NCCL_DEBUG is no knob of this sweep
  EXPECT_NE(about.front().find("NCCL_ALGO=Tree"), std::string::npos) << about.front();
  EXPECT_NE(about.front().find("'default', 'll' run with it"), std::string::npos) << about.front();
}

// The same knob in a replay: the replay says so before it starts (the default runs with it).
TEST(EnvironmentKnobs, AReplayNamesTheKnobTheEnvironmentSetsToo) {
  ScratchDir dir;
  ASSERT_EQ(run_program({COMMTUNE_SIMULATED_BINARY, "workload", "--preset", "ddp", "--params", "1M",
                         "--dtype", "float32", "--dp", "2", "--out", dir.file("w.json")},
                        {}, dir)
                .exit_code,
            0);
  std::ofstream(dir.file("c.json")) << R"({"settings": [{"name": "ring", "knobs": {"NCCL_ALGO": "Ring"}}]})";
  const std::vector<std::string> argv = {COMMTUNE_SIMULATED_BINARY,
                                         "replay",
                                         dir.file("w.json"),
                                         "--backend",
                                         "nccl",
                                         "--ranks",
                                         "2",
                                         "--config",
                                         dir.file("c.json"),
                                         "--rounds",
                                         "1",
                                         "--steps",
                                         "1",
                                         "--warmup",
                                         "0",
                                         "--out",
                                         dir.file("r.json")};
  const Ran with = run_program(argv, {"NCCL_ALGO=Tree"}, dir);
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.err.find("NCCL_ALGO=Tree"), std::string::npos) << with.err;
  EXPECT_NE(with.err.find("'default' runs with it"), std::string::npos) << with.err;
  std::filesystem::remove(dir.file("r.json"));
  const Ran without = run_program(argv, {}, dir);
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(without.err.find("the environment sets"), std::string::npos) << without.err;
}

}  // namespace
}  // namespace commtune
