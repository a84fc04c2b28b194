// Built when the NCCL backend is not: no GPUs can be used.
#include "run/backend_choice.hpp"

namespace commtune {

bool nccl_backend_built() { return false; }
int visible_gpu_count() { return 0; }

}  // namespace commtune
