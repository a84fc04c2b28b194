#pragma once
// The launches of each backend, named by launch.cpp's table (one row a backend):
// - MPI host sweep: every MPI rank measures on host memory; rank 0 writes.
// - NCCL sweep: supervisors (one per MPI rank under mpirun/srun, or one local supervisor for every
//   local GPU without a launcher) start a fresh worker per rank and setting; rank 0 writes.
// - MPI doctor: the system checks on the first rank of each node, the job's ceiling, a short
//   pairwise map (MPI_Sendrecv) and one small all-reduce sweep.
// - NCCL doctor: the same through NCCL workers under the watchdog (ncclSend/ncclRecv maps, with
//   several nodes also the GPUs inside each node).
// Both doctors hand what they measured to doctor/doctor_report: one findings list, one printer,
// one JSON writer.
#include "launch/doctor_launch.hpp"
#include "launch/launch.hpp"

namespace commtune {

int run_mpi_sweep(const SweepLaunch& launch);
int run_nccl_sweep(const SweepLaunch& launch);
int run_mpi_doctor(const DoctorLaunch& launch);
int run_nccl_doctor(const DoctorLaunch& launch);

}  // namespace commtune
