#include "launch/backend_choice.hpp"

#include "backend/nccl/worker/gpu_probe.hpp"
#include "core/errors.hpp"

namespace commtune {

BackendChoice choose_backend(std::optional<BackendKind> requested, const Wiring& wiring) {
  if (requested == BackendKind::Mpi) return {BackendKind::Mpi, "MPI host backend (requested)"};
  if (wiring.simulated()) return {BackendKind::Nccl, "NCCL backend with " + wiring.simulated_label};
  const bool built = nccl_backend_built();
  const GpuCount visible = built ? visible_gpus() : GpuCount{};
  const int gpus = visible.count;
  // Where CUDA could not count its GPUs (a driver older than the runtime, a driver/library
  // mismatch), say what CUDA said: that is not "no GPU".
  const std::string none =
      visible.problem.empty() ? "no GPU visible" : "CUDA cannot use the GPUs: " + visible.problem;
  if (requested == BackendKind::Nccl) {
    if (!built) throw UnavailableError("--backend nccl: this commtune was built without CUDA/NCCL");
    if (gpus == 0) throw UnavailableError("--backend nccl: " + none + " on this machine");
    return {BackendKind::Nccl, "NCCL backend (requested), " + std::to_string(gpus) + " GPU(s) visible"};
  }
  if (built && gpus > 0)
    return {BackendKind::Nccl, "NCCL backend: " + std::to_string(gpus) + " GPU(s) visible"};
  return {BackendKind::Mpi, built ? "MPI host backend: " + none : "MPI host backend: built without NCCL"};
}

}  // namespace commtune
