// The fill / verify kernels on a real GPU: every element type and reduction, rank patterns and
// poison. Skips, saying why, where no GPU is visible.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include "fill_verify.hpp"
#include "measure/data_pattern.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {
namespace {

class GpuKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    if (visible_gpu_count() == 0) GTEST_SKIP() << "no GPU visible: the kernels need one";
    ASSERT_EQ(cudaMalloc(&buffer_, kCount * 8), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&counter_), sizeof *counter_), cudaSuccess);
  }
  void TearDown() override {
    cudaFree(buffer_);
    cudaFree(counter_);
  }
  unsigned long long wrong(DataType t, ReduceOp op, int source, int nranks, std::size_t first) {
    cudaMemset(counter_, 0, sizeof *counter_);
    kernels::count_mismatches(buffer_, kCount, t, op, source, nranks, first, counter_, nullptr);
    unsigned long long host = 0;
    cudaMemcpy(&host, counter_, sizeof host, cudaMemcpyDeviceToHost);
    return host;
  }
  static constexpr std::size_t kCount = 100000;
  void* buffer_ = nullptr;
  unsigned long long* counter_ = nullptr;
};

const DataType kTypes[] = {DataType::Int8,    DataType::Uint8,  DataType::Int32,   DataType::Uint32,
                           DataType::Int64,   DataType::Uint64, DataType::Float16, DataType::BFloat16,
                           DataType::Float32, DataType::Float64};
const ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min};

TEST_F(GpuKernels, AFilledRankVerifiesAndOthersDoNot) {
  for (DataType t : kTypes)
    for (ReduceOp op : kOps) {
      kernels::fill_inputs(buffer_, kCount, t, op, 2, 4, 7, nullptr);
      EXPECT_EQ(wrong(t, op, 2, 4, 7), 0u) << name_of(t) << " " << name_of(op);
      EXPECT_GT(wrong(t, op, 1, 4, 7), 0u) << name_of(t) << " " << name_of(op);
    }
}

TEST_F(GpuKernels, SingleRankReductionIsItsInput) {
  for (DataType t : kTypes)
    for (ReduceOp op : kOps) {
      kernels::fill_inputs(buffer_, kCount, t, op, 0, 1, 0, nullptr);
      EXPECT_EQ(wrong(t, op, -1, 1, 0), 0u) << name_of(t) << " " << name_of(op);
    }
}

TEST_F(GpuKernels, PoisonIsWrongEverywhere) {
  for (DataType t : kTypes)
    for (int nranks : {4, 29, 36}) {
      kernels::fill_poison(buffer_, kCount, t, poison_value(t, ReduceOp::Sum, nranks), nullptr);
      EXPECT_EQ(wrong(t, ReduceOp::Sum, -1, nranks, 0), kCount) << name_of(t) << " " << nranks;
    }
}

}  // namespace
}  // namespace commtune
