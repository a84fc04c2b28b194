#pragma once
// A backend runs collectives: MPI on host memory (in-process) or NCCL on GPUs (isolated workers).
// The sweep runner only sees this interface: open a setting, run its cases, close it.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend_kind.hpp"
#include "core/errors.hpp"
#include "plan/cost_model.hpp"
#include "plan/plan.hpp"
#include "results/case_result.hpp"

namespace commtune {

// One call of a replayed training step (`commtune replay`, issue 28): a case (collective, bytes,
// type, op, out of place; its group spec names the communicator it runs on) run `repeat` times in a
// row, as the workload's count says.
struct StepCall {
  Case spec;
  std::uint64_t repeat = 1;
};

// What the whole job measured of replayed steps, the same on every rank: each step's seconds (from
// the step's common start to its last rank's end) and, per call, its seconds in each step (the
// slowest rank's, its repeats together).
struct StepTimes {
  std::vector<double> step_seconds;               // [step]
  std::vector<std::vector<double>> call_seconds;  // [call][step]
};

// A setting in force. Destroying it releases what the setting held (communicator, worker). A
// session may serve several plans in turn (racing keeps it open across rounds), so each case
// comes with the options it is measured under (the stopping rule, the data check).
class SettingSession {
 public:
  virtual ~SettingSession() = default;
  // Measures one case on every rank; throws BackendError when the case fails on this rank.
  virtual CaseResult run_case(const Case& c, const Setting& setting, const SweepOptions& options) = 0;
  // Replays `steps` steps of `calls`, in order, every group at once (a rank runs each call on its
  // own group's communicator of the call's spec), after `warmup` untimed steps; every step starts
  // from a barrier of the whole job. Throws UnavailableError where the backend cannot replay.
  virtual StepTimes run_steps(const std::vector<StepCall>& calls, std::size_t steps, std::size_t warmup) {
    (void)calls, (void)steps, (void)warmup;
    throw UnavailableError("this backend cannot replay a training step yet");
  }
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;
  // Ranks, ranks per host and memory, for the planner's size cap.
  virtual PlanLimits limits() const = 0;
  // What a setting, a case and an iteration roughly cost here, for --budget and the ETA.
  virtual CostModel cost_model() const = 0;
  // Facts about the run this backend knows (library versions, hosts, rank layout).
  virtual nlohmann::json provenance() const = 0;
  // Checks every knob before anything is launched; throws InputError for a knob that cannot work.
  virtual void validate(const Setting& setting, const SweepOptions& options) const = 0;
  // Applies a setting; throws SettingError when it cannot be applied on this rank.
  virtual std::unique_ptr<SettingSession> open(const Setting& setting, const SweepOptions& options) = 0;
};

}  // namespace commtune
