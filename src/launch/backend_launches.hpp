#pragma once
// The launch of each backend, one function each, named by launch.cpp's table:
// - MPI host sweep: every MPI rank measures on host memory; rank 0 writes.
// - NCCL sweep: supervisors (one per MPI rank under mpirun/srun, or one local supervisor for every
//   local GPU without a launcher) start a fresh worker per rank and setting; rank 0 writes.
#include "launch/launch.hpp"

namespace commtune {

int run_mpi_sweep(const SweepLaunch& launch);
int run_nccl_sweep(const SweepLaunch& launch);

}  // namespace commtune
