#include "launch/backend_choice.hpp"

#include "backend/nccl/worker/gpu_probe.hpp"
#include "core/errors.hpp"

namespace commtune {

BackendChoice choose_backend(const std::string& requested, const Wiring& wiring) {
  if (requested == "mpi") return {"mpi", "MPI host backend (requested)"};
  if (requested != "auto" && requested != "nccl")
    throw InputError("--backend must be auto, mpi or nccl (got '" + requested + "')");
  if (wiring.simulated()) return {"nccl", "NCCL backend with " + wiring.simulated_label};
  const bool built = nccl_backend_built();
  const int gpus = built ? visible_gpu_count() : 0;
  if (requested == "nccl") {
    if (!built) throw UnavailableError("--backend nccl: this commtune was built without CUDA/NCCL");
    if (gpus == 0) throw UnavailableError("--backend nccl: no GPU is visible on this machine");
    return {"nccl", "NCCL backend (requested), " + std::to_string(gpus) + " GPU(s) visible"};
  }
  if (built && gpus > 0) return {"nccl", "NCCL backend: " + std::to_string(gpus) + " GPU(s) visible"};
  return {"mpi", built ? "MPI host backend: no GPU visible" : "MPI host backend: built without NCCL"};
}

}  // namespace commtune
