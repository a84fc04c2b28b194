#pragma once
// What this build and machine offer for the NCCL backend, asked without creating a CUDA context:
// whether the backend is built, how many GPUs are visible, and which NCCL library would run.
#include <string>

namespace commtune {

bool nccl_backend_built();
int visible_gpu_count();               // 0, not an error, where there is no driver or no GPU
std::string nccl_runtime_version();    // "2.28.9", or "not built"

}  // namespace commtune
