#pragma once
// The scripted machine behind fake_cudart.cpp (a test double: never linked into commtune).
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace commtune::fake_cuda {

struct Machine {
  int devices = 0;
  cudaError_t count_error = cudaSuccess;  // what cudaGetDeviceCount returns
  int driver_version = 13000;
  std::vector<std::string> context_calls;  // every call that would make a CUDA context
};

Machine& machine();

}  // namespace commtune::fake_cuda
