#pragma once
// Starts a sweep (or the doctor) on the chosen backend: launch.cpp's table has one row a
// BackendKind, checked at compile time; the backends' own launches are in backend_launches.hpp.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "host/launcher.hpp"
#include "launch/backend_choice.hpp"
#include "launch/wiring.hpp"
#include "plan/sweep_options.hpp"
#include "sweep/sweep_session.hpp"

namespace commtune {

struct SweepLaunch {
  const SweepConfig& config;
  BackendChoice choice;
  std::string out_path;  // empty: results/commtune-BACKEND-TIME.json
  int argc;
  char** argv;
  NcclRunOptions nccl{};  // NCCL backend only: workers, deadlines, launch mode
  const Wiring& wiring;
  Launcher launcher;          // read before MPI_Init, which adds variables of its own (a singleton's PMIX_*)
  std::string resume_path{};  // --resume: the interrupted sweep's results file; empty: a fresh sweep
  bool html_report = true;    // --no-report: false
  // What runs once the backend and the control plane are up, on every rank: the sweep, or another
  // job on the same launch (`commtune replay`, cli/replay_command).
  std::function<int(const Plan&, Backend&, ControlPlane&, const SweepReport&)> session = run_sweep_session;
  // Checks the job before the plan is made (every rank, the backend's limits); throws InputError.
  std::function<void(const PlanLimits&)> check_job = nullptr;
};

// Returns the process exit code: 0 when every case measured correct data, 1 otherwise.
int launch_sweep(const SweepLaunch& launch);

// The provenance every run has: argv, environment, time, tool, backend choice, config, labels.
nlohmann::json launch_provenance(const SweepLaunch& launch);

}  // namespace commtune
