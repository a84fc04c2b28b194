#pragma once
// Starts a sweep on the chosen backend and control plane, with rank 0's writers attached.
#include <string>

#include "plan/sweep_options.hpp"
#include "report/result_sink.hpp"
#include "launch/backend_choice.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"

namespace commtune {

struct SweepLaunch {
  const SweepConfig& config;
  BackendChoice choice;
  std::string out_path;  // empty: results/commtune-BACKEND-TIME.json
  int argc;
  char** argv;
  NcclRunOptions nccl{};  // NCCL backend only: workers, deadlines, launch mode
};

// Returns the process exit code: 0 when every case measured correct data, 1 otherwise.
int launch_sweep(const SweepLaunch& launch);

// Runs the sweep over MPI ranks on host memory.
int run_mpi_sweep(const SweepLaunch& launch);

// Runs the sweep on GPUs through NCCL: supervised worker processes, MPI or local control plane.
int run_nccl_sweep(const SweepLaunch& launch);

// 0: done, no wrong data (failed settings are recorded, not fatal); 1: wrong data; 130: interrupted.
int sweep_exit_code(const RunSummary& summary);

std::string default_results_path(const std::string& backend);

}  // namespace commtune
