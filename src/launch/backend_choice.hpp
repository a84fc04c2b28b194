#pragma once
// Which backend a sweep runs on: --backend auto takes NCCL when this build has it and GPUs are
// visible (or its workers simulate), else the MPI host backend, and says why.
#include <string>

#include "launch/wiring.hpp"

namespace commtune {

struct BackendChoice {
  std::string name = "mpi";  // a row of launch.cpp's table: "mpi" or "nccl"
  std::string reason;        // one line for the user
};

// Throws InputError for an unknown name, UnavailableError for nccl without GPUs or NCCL.
BackendChoice choose_backend(const std::string& requested, const Wiring& wiring);

}  // namespace commtune
