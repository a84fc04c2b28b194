#include "backend/nccl/worker/nccl_check.hpp"

#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

std::string nccl_error_text(ncclResult_t result, ncclComm_t comm) {
  std::string text = ncclGetErrorString(result);
  const char* last = ncclGetLastError(comm);
  if (last != nullptr && *last != '\0') text += " (NCCL: " + std::string(last) + ")";
  return text;
}

void check_cuda(cudaError_t error, const char* what, bool fatal) {
  if (error == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky-free error so the next call starts clean
  const std::string text =
      std::string(what) + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error);
  if (fatal) throw CommunicatorLost(text);
  throw BackendError(text);
}

void check_nccl(ncclResult_t result, ncclComm_t comm, const char* what, bool fatal) {
  if (result == ncclSuccess || result == ncclInProgress) return;
  const std::string text = std::string(what) + ": " + nccl_error_text(result, comm);
  if (fatal) throw CommunicatorLost(text);
  throw BackendError(text);
}

std::string nccl_version_text(int code) {
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}

}  // namespace commtune
