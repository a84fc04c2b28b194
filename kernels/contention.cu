#include "contention.hpp"

#include <algorithm>
#include <cmath>

namespace commtune::kernels {
namespace {

constexpr unsigned kThreads = 512;

// Each block owns a slice of the buffer and adds one to every word of it, pass after pass, until
// the host's flag is set; thread 0 reads the flag between passes and tells the others.
__global__ void contention_kernel(unsigned long long* buffer, std::size_t words, const volatile int* stop) {
  extern __shared__ unsigned char reserved[];  // held, not used: one block per SM
  __shared__ int done;
  const std::size_t slice = words / gridDim.x;
  unsigned long long* mine = buffer + blockIdx.x * slice;
  if (threadIdx.x == 0) reserved[0] = 0;
  while (true) {
    for (std::size_t i = threadIdx.x; i < slice; i += blockDim.x) mine[i] += 1;
    if (threadIdx.x == 0) done = *stop;
    __syncthreads();
    if (done != 0) return;
    __syncthreads();
  }
}

}  // namespace

cudaError_t launch_contention(double fraction, int sms, std::size_t shared_bytes, unsigned long long* buffer,
                              std::size_t words, const volatile int* stop, cudaStream_t stream) {
  const int blocks = std::max(1, static_cast<int>(std::lround(fraction * sms)));
  const cudaError_t attribute = cudaFuncSetAttribute(
      contention_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes));
  if (attribute != cudaSuccess) return attribute;
  contention_kernel<<<blocks, kThreads, shared_bytes, stream>>>(buffer, words, stop);
  return cudaGetLastError();
}

}  // namespace commtune::kernels
