// Built with the NCCL backend: what this machine offers, asked without creating a CUDA context.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include "backend/nccl/worker/nccl_check.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {

bool nccl_backend_built() { return true; }

// 0, not an error, where there is no driver or no GPU: the caller falls back or says why.
int visible_gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

std::string nccl_runtime_version() {
  int code = 0;
  if (ncclGetVersion(&code) != ncclSuccess) return "unknown (ncclGetVersion failed)";
  return nccl_version_text(code);
}

}  // namespace commtune
