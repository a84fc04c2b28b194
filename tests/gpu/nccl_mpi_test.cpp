// commtune launched as users launch it on a cluster, `mpirun -np N commtune sweep`, here with all
// N ranks on the one GPU as emulated nodes: N supervisors, one worker each, agreeing on every
// step. Skips, saying why, where no GPU is visible or COMMTUNE_MPIRUN is not set.
#include <gtest/gtest.h>

#include "gpu_sweep.hpp"

namespace commtune {
namespace {

using namespace commtune::gpu_testing;
using commtune::testing::ScratchDir;

class GpuMpiSweep : public ::testing::TestWithParam<int> {};

TEST_P(GpuMpiSweep, EveryRankMeasuresCorrectData) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  const int np = GetParam();
  std::vector<std::string> argv = mpirun(np);
  if (argv.empty())
    GTEST_SKIP() << "COMMTUNE_MPIRUN is not set (run through ctest, or scripts/device-check.sh)";
  ScratchDir dir;
  const std::vector<std::string> sweep =
      short_sweep(product_binary(), dir.file("r.json"),
                  {"--emulate-nodes", "--collectives", "allreduce,allgather,broadcast,reducescatter"});
  argv.insert(argv.end(), sweep.begin(), sweep.end());
  const SweepRun run = run_sweep(argv, dir, dir.file("r.json"));
  ASSERT_EQ(run.ran.exit_code, 0) << run.ran.err << run.ran.out;
  expect_all_measured(run.results, np, "mpirun -np " + std::to_string(np));
  for (const char* collective : {"allreduce", "allgather", "broadcast", "reducescatter"})
    EXPECT_GT(count_cases(run.results, "collective", collective), 0u) << collective;
  expect_nccl_provenance(run.results, np, true, false);
}

INSTANTIATE_TEST_SUITE_P(Ranks, GpuMpiSweep, ::testing::Values(2, 3, 4),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "np" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace commtune
