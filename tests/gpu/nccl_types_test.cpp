// Every element type under every reduction on a real GPU, data check on: two emulated nodes on
// the one GPU, one short sweep per (type, reduction). Sum runs all four collectives; prod, max
// and min the two that reduce (all-reduce, reduce-scatter). A type's four sweeps run at once, so
// the matrix costs about ten sweeps' time. Skips, saying why, where no GPU is visible.
#include <gtest/gtest.h>

#include "gpu_sweep.hpp"

namespace commtune {
namespace {

using namespace commtune::gpu_testing;

class GpuTypes : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuTypes, EveryReductionHasNoWrongElement) {
  COMMTUNE_SKIP_WITHOUT_GPU();
  const std::string dtype = GetParam();
  const std::vector<std::string> ops = {"sum", "prod", "max", "min"};
  const std::vector<SweepRun> runs =
      run_sweeps_together(ops.size(), [&](std::size_t i, const std::string& out) {
        const std::string collectives =
            ops[i] == "sum" ? "allreduce,allgather,broadcast,reducescatter" : "allreduce,reducescatter";
        return short_sweep(
            product_binary(), out,
            {"--ranks", "2", "--emulate-nodes", "-d", dtype, "-o", ops[i], "--collectives", collectives});
      });
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::string what = dtype + " " + ops[i];
    EXPECT_EQ(runs[i].ran.exit_code, 0) << what << ": " << runs[i].ran.err;
    expect_all_measured(runs[i].results, 2, what);
    if (!runs[i].results.is_object()) continue;
    EXPECT_EQ(count_cases(runs[i].results, "dtype", dtype), runs[i].results["cases"].size()) << what;
    EXPECT_GT(count_cases(runs[i].results, "collective", "reducescatter"), 0u) << what;
    for (const auto& c : runs[i].results["cases"])
      if (c.value("collective", "") == "allreduce" || c.value("collective", "") == "reducescatter") {
        EXPECT_EQ(c.value("op", ""), ops[i]) << what << ": " << describe(c);
      }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, GpuTypes,
                         ::testing::Values("float", "double", "int8", "uint8", "int32", "uint32", "int64",
                                           "uint64", "half", "bfloat16"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

}  // namespace
}  // namespace commtune
