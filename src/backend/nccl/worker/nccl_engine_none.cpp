// Built without CUDA/NCCL: there is no NCCL engine to run.
#include "core/errors.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

std::unique_ptr<WorkerEngine> make_nccl_engine(const WorkerIdentity&) {
  throw UnavailableError("this commtune was built without CUDA/NCCL");
}

}  // namespace commtune
