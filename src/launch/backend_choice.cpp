#include "launch/backend_choice.hpp"

#include "core/errors.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

BackendChoice choose_backend(const std::string& requested) {
  if (requested == "mpi") return {BackendKind::Mpi, "MPI host backend (requested)"};
  if (requested != "auto" && requested != "nccl")
    throw InputError("--backend must be auto, mpi or nccl (got '" + requested + "')");
  if (fake_workers_requested())
    return {BackendKind::Nccl, "NCCL backend with simulated workers (COMMTUNE_FAKE_WORKER=1: test mode, no GPU used)"};
  const bool built = nccl_backend_built();
  const int gpus = built ? visible_gpu_count() : 0;
  if (requested == "nccl") {
    if (!built) throw UnavailableError("--backend nccl: this commtune was built without CUDA/NCCL");
    if (gpus == 0) throw UnavailableError("--backend nccl: no GPU is visible on this machine");
    return {BackendKind::Nccl, "NCCL backend (requested), " + std::to_string(gpus) + " GPU(s) visible"};
  }
  if (built && gpus > 0) return {BackendKind::Nccl, "NCCL backend: " + std::to_string(gpus) + " GPU(s) visible"};
  return {BackendKind::Mpi, built ? "MPI host backend: no GPU visible" : "MPI host backend: built without NCCL"};
}

}  // namespace commtune
