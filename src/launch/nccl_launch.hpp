#pragma once
// The NCCL sweep: supervisors (one per MPI rank under mpirun/srun, or one local supervisor for
// every local GPU without a launcher) start a fresh worker per rank and setting; rank 0 writes.
#include "launch/launch.hpp"

namespace commtune {

int run_nccl_sweep(const SweepLaunch& launch);

}  // namespace commtune
