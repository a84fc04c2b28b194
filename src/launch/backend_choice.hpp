#pragma once
// Which backend a sweep runs on: --backend auto takes NCCL when this build has it and GPUs are
// visible, else the MPI host backend, and says why.
#include <string>

namespace commtune {

enum class BackendKind { Mpi, Nccl };

struct BackendChoice {
  BackendKind kind = BackendKind::Mpi;
  std::string reason;  // one line for the user
};

// Throws InputError for an unknown name, UnavailableError for nccl without GPUs or NCCL.
BackendChoice choose_backend(const std::string& requested);

}  // namespace commtune
