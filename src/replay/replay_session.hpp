#pragma once
// What every backend's replay does once its launch has the backend and the control plane (the same
// launches as the sweep's: launch/): check that the job fits the workload, check the results path,
// replay the rounds, then rank 0 writes the results file and prints the table. Every rank calls it.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/backend.hpp"
#include "control/control_plane.hpp"
#include "replay/replay_job.hpp"

namespace commtune {

struct ReplayJob {
  Workload workload;
  std::string workload_path;
  ReplayOptions options;
  std::vector<std::string> notes;  // said once before the replay (what --recommendation leaves out)
};

struct ReplayReport {
  std::string out_path;  // empty: results/commtune-replay-BACKEND-TIME.json
  nlohmann::json provenance;
  std::string banner;                 // rank 0's first line on stderr
  std::function<bool()> interrupted;  // this rank's stop request (Ctrl-C)
};

// 0: replayed (a failed setting is recorded, not fatal); 1: the default could not be replayed;
// 130: interrupted (what was replayed is written).
int run_replay_session(const ReplayJob& job, const Plan& plan, Backend& backend, ControlPlane& control,
                       const ReplayReport& report);

}  // namespace commtune
