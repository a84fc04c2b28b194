#pragma once
// The measurement of a replay: every setting's sessions opened once and kept, then rounds in which
// each setting in turn replays `steps` steps of the workload (the order rotated each round, so that
// drift over the run falls on every setting alike). A setting that cannot be opened or whose replay
// fails is recorded with the reason and left out of the later rounds; the others go on. Every rank
// calls it in step and gets the same measurement.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "control/control_plane.hpp"
#include "replay/replay_job.hpp"

namespace commtune {

// One setting's replayed steps over all rounds, in the order they ran.
struct SettingReplay {
  Setting setting;
  std::optional<std::string> failure;             // why it has no further steps (open or replay failed)
  std::vector<double> step_seconds;               // [step], every round's
  std::vector<std::vector<double>> call_seconds;  // [call][step], every round's
  std::vector<double> round_medians;              // each round's median step
};

struct ReplayMeasurement {
  std::vector<SettingReplay> settings;  // the settings' order (the default first)
  std::size_t rounds_run = 0;
  bool complete = false;  // every round ran (not interrupted)
};

struct ReplayRun {
  const std::vector<Setting>& settings;
  const SweepOptions& options;  // what the settings are opened with: the groups, --contend
  const std::vector<StepCall>& calls;
  const ReplayOptions& replay;
  Backend& backend;
  ControlPlane& control;
  std::function<bool()> interrupted;  // this rank's stop request
  std::function<void(std::size_t round, const ReplayMeasurement&)> after_round =
      nullptr;  // rank 0's progress
};

ReplayMeasurement replay_rounds(const ReplayRun& run);

}  // namespace commtune
