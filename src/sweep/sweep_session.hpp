#pragma once
// What every backend's sweep does once it has a plan: rank 0 opens the results file and attaches
// the writers, every rank runs the plan, then the end-of-sweep tuning. The MPI and NCCL sweeps
// only differ in how they build the backend and the control plane.
#include <string>

#include <nlohmann/json.hpp>

#include "backend/backend.hpp"
#include "control/control_plane.hpp"
#include "launch/launch.hpp"

namespace commtune {

struct PreparedSweep {
  const SweepLaunch& launch;
  const Plan& plan;
  Backend& backend;
  ControlPlane& control;
  nlohmann::json provenance;
  std::string banner;  // rank 0's first line on stderr: backend, ranks, labels
};

// Every rank calls it in step; returns the process exit code (sweep_exit_code).
int run_prepared_sweep(const PreparedSweep& sweep);

// The provenance every run has: argv, environment, time, tool, backend choice, config.
nlohmann::json launch_provenance(const SweepLaunch& launch);

// Every rank validates the same settings, so an InputError is thrown on all ranks alike.
void validate_settings(const Backend& backend, const SweepConfig& config);

}  // namespace commtune
