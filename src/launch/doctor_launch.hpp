#pragma once
// `commtune doctor` on the MPI host backend: the system checks on the first rank of each node,
// the job's ceiling, a short pairwise map and one small all-reduce sweep, then the findings,
// ranked, on rank 0. On the NCCL backend (nccl_doctor_launch.hpp): the checks, the ceiling and the
// pairwise map through NCCL workers under the watchdog. Launched like a sweep: `mpirun -np N --map-by
// ppr:1:node commtune doctor` (one rank per node) or srun; without a launcher, one process.
#include <string>

#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "host/launcher.hpp"
#include "launch/backend_choice.hpp"

namespace commtune {

struct DoctorLaunch {
  bool quick = false;
  std::string json_path;          // empty: no findings file
  std::string system_root = "/";  // the tree the checks read (a recorded one in tests)
  int argc = 0;
  char** argv = nullptr;
  BackendChoice choice{};  // "mpi" (the host backend) or "nccl" (the map through NCCL workers)
  NcclRunOptions nccl{};   // the NCCL doctor's workers and deadlines
  Launcher launcher{};     // read before MPI_Init
};

// 0: nothing needs attention; 1: a warning or worse; 2: bad input (ReportedError).
int launch_doctor(const DoctorLaunch& launch);

}  // namespace commtune
