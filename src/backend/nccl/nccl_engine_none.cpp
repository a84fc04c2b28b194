// Built without CUDA/NCCL: workers can only simulate.
#include "core/errors.hpp"
#include "run/nccl_facts.hpp"
#include "run/worker_engine.hpp"

namespace commtune {

std::unique_ptr<WorkerEngine> make_nccl_engine(const WorkerIdentity&) {
  throw UnavailableError("this commtune was built without CUDA/NCCL");
}

std::string nccl_runtime_version() { return "not built"; }

}  // namespace commtune
