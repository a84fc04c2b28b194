// Built when the NCCL backend is not: no GPUs can be used.
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {

bool nccl_backend_built() { return false; }
GpuCount visible_gpus() { return {}; }
int visible_gpu_count() { return 0; }
std::string nccl_runtime_version() { return "not built"; }

}  // namespace commtune
