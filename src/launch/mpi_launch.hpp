#pragma once
// The MPI host sweep: every MPI rank measures on host memory; rank 0 writes.
#include "launch/launch.hpp"

namespace commtune {

int run_mpi_sweep(const SweepLaunch& launch);

}  // namespace commtune
