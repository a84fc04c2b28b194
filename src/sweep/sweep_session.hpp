#pragma once
// What every backend's sweep does once it has a plan: rank 0 opens the results file and attaches
// the writers, every rank runs the plan, then the end-of-sweep tuning. The launches of the MPI and
// NCCL backends only differ in how they build the backend and the control plane.
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "plan/sweep_options.hpp"
#include "writers/result_sink.hpp"
#include "sweep/sweep_run.hpp"

namespace commtune {

// What a sweep writes and says besides its cases.
struct SweepReport {
  std::string out_path;                  // empty: results/commtune-BACKEND-TIME.json
  nlohmann::json provenance;             // rank 0's
  std::string banner;                    // rank 0's first line on stderr: backend, ranks, labels
  std::chrono::seconds stop_grace{300};  // after Ctrl-C / SIGTERM: longer than the longest step
  std::string resume_path;               // --resume: the interrupted sweep's results file (sweep/resume.hpp)
  bool html_report = true;  // RESULTS.html beside the results file at the end (--no-report: false)
};

// Every rank calls it in step; returns the process exit code (sweep_exit_code).
int run_sweep_session(const Plan& plan, Backend& backend, ControlPlane& control, const SweepReport& report);

// Every rank validates the same settings, so an InputError is thrown on all ranks alike; it names
// the config file and the setting.
void validate_settings(const Backend& backend, const SweepConfig& config);

// make_plan on the config's options and settings, within the backend's limits; with --budget, the
// plan fitted into it (plan/budget_fit), its cuts among the plan's warnings. Its InputError names
// the config file.
Plan plan_sweep(const SweepConfig& config, const Backend& backend);

// 0: done, no wrong data (failed settings are recorded, not fatal); 1: wrong data; 130: interrupted.
int sweep_exit_code(const RunSummary& summary);

std::string default_results_path(BackendKind backend);

}  // namespace commtune
