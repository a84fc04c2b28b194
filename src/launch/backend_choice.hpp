#pragma once
// Which backend a sweep runs on: --backend auto takes NCCL when this build has it and GPUs are
// visible (or its workers simulate), else the MPI host backend, and says why.
#include <optional>
#include <string>

#include "core/backend_kind.hpp"
#include "launch/wiring.hpp"

namespace commtune {

struct BackendChoice {
  BackendKind kind = BackendKind::Mpi;
  std::string reason;  // one line for the user
};

// `requested`: none for auto. Throws UnavailableError for NCCL without GPUs or NCCL.
BackendChoice choose_backend(std::optional<BackendKind> requested, const Wiring& wiring);

}  // namespace commtune
