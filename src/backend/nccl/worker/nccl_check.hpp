#pragma once
// NCCL and CUDA results turned into typed errors with NCCL's own words: the error string plus
// the last warning NCCL logged (ncclGetLastError), which is what a user needs in the results.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>

namespace commtune {

std::string nccl_error_text(ncclResult_t result, ncclComm_t comm);

// Throws BackendError (CommunicatorLost when `fatal`) naming `what`.
void check_cuda(cudaError_t error, const char* what, bool fatal = false);
void check_nccl(ncclResult_t result, ncclComm_t comm, const char* what, bool fatal);

// "2.28.9" from ncclGetVersion's 22809.
std::string nccl_version_text(int code);

}  // namespace commtune
