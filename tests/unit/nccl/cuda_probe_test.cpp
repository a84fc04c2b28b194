// The device probe against a fake CUDA runtime (fake_cudart.cpp): it reads every GPU's attributes
// without a single call that makes a CUDA context (under mpirun -np 8 on an 8-GPU node in
// Exclusive_Process mode such calls would collide), and where CUDA cannot count its devices it
// says what CUDA said instead of "no GPU".
#include <gtest/gtest.h>

#include "backend/nccl/worker/cuda_probe.hpp"
#include "core/errors.hpp"
#include "fake_cudart.hpp"

namespace commtune {
namespace {

fake_cuda::Machine& fresh(int devices, cudaError_t count_error = cudaSuccess) {
  fake_cuda::Machine& m = fake_cuda::machine();
  m = fake_cuda::Machine{};
  m.devices = devices;
  m.count_error = count_error;
  return m;
}

TEST(CudaProbe, EightGpusWithoutAContext) {
  const fake_cuda::Machine& m = fresh(8);
  const nlohmann::json facts = probe_visible_devices();
  ASSERT_EQ(facts.at("devices").size(), 8u);
  for (int d = 0; d < 8; ++d) {
    const nlohmann::json& device = facts.at("devices").at(static_cast<std::size_t>(d));
    EXPECT_EQ(device.at("index"), d);
    EXPECT_EQ(device.at("compute_capability"), "9.0");
    EXPECT_EQ(device.at("total_bytes"), (141ull << 30) + static_cast<unsigned long long>(d));
    EXPECT_FALSE(device.contains("free_bytes"));  // free memory needs a context: the worker's to read
  }
  EXPECT_EQ(facts.at("devices").at(3).at("pci_bus_id"), "0000:1b:00.0");
  EXPECT_EQ(facts.at("cuda_runtime"), "13.0");
  EXPECT_TRUE(m.context_calls.empty()) << m.context_calls.front();
}

TEST(CudaProbe, NoDeviceOrNoDriverIsZeroWithoutAProblem) {
  fresh(0, cudaErrorNoDevice);
  EXPECT_EQ(count_visible_gpus(true).count, 0);
  EXPECT_TRUE(count_visible_gpus(true).problem.empty());
  fresh(0, cudaErrorInsufficientDriver);  // what CUDA says where no NVIDIA driver is installed at all
  EXPECT_TRUE(count_visible_gpus(false).problem.empty());
  EXPECT_EQ(probe_visible_devices().at("devices").size(), 0u);
}

TEST(CudaProbe, AnInsufficientDriverIsSaidNotTakenForNoGpu) {
  fake_cuda::Machine& m = fresh(2, cudaErrorInsufficientDriver);
  m.driver_version = 12020;
  const GpuCount count = count_visible_gpus(true);
  EXPECT_EQ(count.count, 0);
  EXPECT_NE(count.problem.find("cudaErrorInsufficientDriver"), std::string::npos) << count.problem;
  EXPECT_NE(count.problem.find("12.2"), std::string::npos) << count.problem;  // the driver's CUDA version
  fresh(2, cudaErrorSystemDriverMismatch);
  const GpuCount mismatch = count_visible_gpus(true);
  EXPECT_NE(mismatch.problem.find("cudaErrorSystemDriverMismatch"), std::string::npos) << mismatch.problem;
}

TEST(CudaProbe, TheProbeThrowsWithCudasWordsWhereItCannotCount) {
  fresh(1, cudaErrorSystemDriverMismatch);
  try {
    probe_visible_devices();
    ADD_FAILURE() << "no error";
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("cudaErrorSystemDriverMismatch"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace commtune
