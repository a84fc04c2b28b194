#pragma once
// What this build and machine offer for the NCCL backend, asked without creating a CUDA context:
// whether the backend is built, how many GPUs are visible (or what CUDA said where it could not
// count them), and which NCCL library would run.
#include <string>

namespace commtune {

struct GpuCount {
  int count = 0;
  std::string problem;  // empty: `count` is what CUDA counted (0: no GPU); else what CUDA said
};

bool nccl_backend_built();
GpuCount visible_gpus();             // count 0 and no problem where there is no driver or no GPU
int visible_gpu_count();             // visible_gpus().count
std::string nccl_runtime_version();  // "2.28.9", or "not built"

}  // namespace commtune
