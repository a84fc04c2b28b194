#pragma once
// The supervisor half of fault injection (test build only): a backend that, when it opens a
// setting carrying a supervisor fault for this rank, exits or stops answering its peers.
#include <memory>

#include "backend/backend.hpp"

namespace commtune {

std::unique_ptr<Backend> with_supervisor_faults(std::unique_ptr<Backend> inner, int rank);

}  // namespace commtune
