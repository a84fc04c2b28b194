// A stand-in for the CUDA runtime, linked instead of libcudart into cuda_probe_tests only: it
// answers the attribute queries from a scripted machine and counts every call that would make a
// CUDA context (cudaSetDevice, cudaMemGetInfo, allocation, synchronisation), so that a test can
// show the probe makes none.
#include "fake_cudart.hpp"

#include <cstring>

namespace commtune::fake_cuda {

Machine& machine() {
  static Machine m;
  return m;
}

}  // namespace commtune::fake_cuda

using commtune::fake_cuda::machine;

namespace {

cudaError_t context_call(const char* name) {
  machine().context_calls.emplace_back(name);
  return cudaSuccess;
}

bool known(int device) { return device >= 0 && device < machine().devices; }

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  *count = machine().count_error == cudaSuccess ? machine().devices : 0;
  return machine().count_error;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!known(device)) return cudaErrorInvalidDevice;
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, "Fake H200", sizeof prop->name - 1);
  prop->major = 9;
  prop->minor = 0;
  prop->totalGlobalMem = (141ull << 30) + static_cast<unsigned long long>(device);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* bus, int length, int device) {
  if (!known(device)) return cudaErrorInvalidDevice;
  std::snprintf(bus, static_cast<std::size_t>(length), "0000:%02x:00.0", 0x18 + device);
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  *version = machine().driver_version;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}

cudaError_t cudaGetLastError() { return cudaSuccess; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaErrorNoDevice:
      return "cudaErrorNoDevice";
    case cudaErrorInsufficientDriver:
      return "cudaErrorInsufficientDriver";
    case cudaErrorSystemDriverMismatch:
      return "cudaErrorSystemDriverMismatch";
    default:
      return "cudaErrorOther";
  }
}

const char* cudaGetErrorString(cudaError_t error) {
  return error == cudaErrorInsufficientDriver ? "CUDA driver version is insufficient for CUDA runtime version"
                                              : "fake CUDA error";
}

cudaError_t cudaSetDevice(int) { return context_call("cudaSetDevice"); }
cudaError_t cudaInitDevice(int, unsigned int, unsigned int) { return context_call("cudaInitDevice"); }
cudaError_t cudaMemGetInfo(size_t*, size_t*) { return context_call("cudaMemGetInfo"); }
cudaError_t cudaMalloc(void**, size_t) { return context_call("cudaMalloc"); }
cudaError_t cudaFree(void*) { return context_call("cudaFree"); }
cudaError_t cudaDeviceSynchronize() { return context_call("cudaDeviceSynchronize"); }

}  // extern "C"
