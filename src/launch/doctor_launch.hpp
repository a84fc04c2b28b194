#pragma once
// `commtune doctor`: the system checks, the job's ceiling, pairwise maps and a small all-reduce
// sweep on the chosen backend (launch/backend_launches.hpp), then the findings, ranked, on rank 0
// (doctor/doctor_report). Launched like a sweep: `mpirun -np N --map-by ppr:1:node commtune doctor`
// (one rank per node) or srun; without a launcher, one process.
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
  BackendChoice choice{};  // the backend that measures the map and the sweep
  NcclRunOptions nccl{};   // the NCCL doctor's workers and deadlines
  Launcher launcher{};     // read before MPI_Init
};

// 0: nothing needs attention; 1: a warning or worse; 2: bad input (ReportedError).
int launch_doctor(const DoctorLaunch& launch);

}  // namespace commtune
