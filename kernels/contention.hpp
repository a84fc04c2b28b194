#pragma once
// A compute load on the GPU beside the collectives (`--contend F`, issue 28): blocks that stream
// through device memory until the host says stop, each taking more than half of an SM's shared
// memory, so that no two share an SM and F x the SMs are occupied (NCCL's kernels get the rest).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace commtune::kernels {

// Launches the load on `stream` over `words` 8-byte words of `buffer`: round(fraction x sms)
// blocks (at least one), each with `shared_bytes` of dynamic shared memory; it runs until the int
// at `stop` (host-mapped memory, device pointer) is non-zero. Returns CUDA's launch error.
cudaError_t launch_contention(double fraction, int sms, std::size_t shared_bytes, unsigned long long* buffer,
                              std::size_t words, const volatile int* stop, cudaStream_t stream);

}  // namespace commtune::kernels
