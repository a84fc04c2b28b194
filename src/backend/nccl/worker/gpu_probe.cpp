// Built with the NCCL backend: what this machine offers, asked without creating a CUDA context.
#include <nccl.h>

#include "backend/nccl/worker/cuda_probe.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"
#include "backend/nccl/worker/nccl_check.hpp"

namespace commtune {

bool nccl_backend_built() { return true; }

GpuCount visible_gpus() { return count_visible_gpus(); }

int visible_gpu_count() { return visible_gpus().count; }

std::string nccl_runtime_version() {
  int code = 0;
  if (ncclGetVersion(&code) != ncclSuccess) return "unknown (ncclGetVersion failed)";
  return nccl_version_text(code);
}

}  // namespace commtune
