// A sweep typed as an nccl-tests user types all_reduce_perf (cli/nccl_tests_habits), run whole on
// simulated NCCL workers: the flags commtune runs anyway pass, the mapped ones take effect, and one
// it cannot honour stops the run before anything is written.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_commtune.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

TEST(NcclTestsFlagsSweep, AllReducePerfsHabitsRunAndTheMappedOnesTakeEffect) {
  ScratchDir dir;
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY,
                               "sweep",
                               "--backend",
                               "nccl",
                               "-b",
                               "8",
                               "-e",
                               "64",
                               "-f",
                               "8",
                               "--collectives",
                               "allreduce",
                               "-g",
                               "1",
                               "-t",
                               "1",
                               "-z",
                               "0",
                               "-a",
                               "1",
                               "-G",
                               "1",
                               "-T",
                               "30",
                               "-N",
                               "2",
                               "-c",
                               "5",
                               "--no-report",
                               "-J",
                               dir.file("r.json")},
                              {}, dir);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.sweep["repeat"], 2);                                                   // -N 2
  EXPECT_EQ(doc.provenance["nccl"]["case_timeout_s"], 30.0) << doc.provenance.dump();  // -T 30
  ASSERT_FALSE(doc.cases.empty());
  for (const CaseResult& c : doc.cases) {
    EXPECT_EQ(c.sample_unit, SampleUnit::BatchMean);  // -G 1: each batch one CUDA graph
    EXPECT_EQ(c.run_medians_us.size(), 2u);           // both runs of -N 2
    EXPECT_TRUE(c.nccl_tests.has_value());            // -a 1's figure: nt-time
  }
  EXPECT_NE(ran.out.find("-a 1: "), std::string::npos) << ran.out;  // the plan says what -a 1 means here
  EXPECT_NE(ran.out.find("-c 5 "), std::string::npos) << ran.out;
}

TEST(NcclTestsFlagsSweep, AFlagCommtuneCannotHonourStopsTheRunBeforeAnythingIsWritten) {
  ScratchDir dir;
  const Ran ran = run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "-b", "8", "-e", "64",
                               "-g", "2", "--no-report", "--out", dir.file("r.json")},
                              {}, dir);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_EQ(ran.err.rfind("commtune: error: -g 2: ", 0), 0u) << ran.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.json")));
}

}  // namespace
}  // namespace commtune
