#pragma once
// One setting in force on the NCCL backend: this supervisor's workers, driven in lock step with
// every other supervisor. A failed step is agreed everywhere and returned as the case's status;
// after a fatal one (a hang, a crash, a lost communicator) the workers are gone and the
// setting's remaining cases are recorded as skipped, with the cause.
#include <memory>

#include "backend/backend.hpp"
#include "backend/nccl/supervisor/step_agreement.hpp"
#include "control/control_plane.hpp"
#include "backend/nccl/supervisor/choice_capture.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "backend/nccl/supervisor/step_outcome.hpp"
#include "backend/nccl/supervisor/worker_group.hpp"
#include "plan/groups.hpp"

namespace commtune {

class NcclSettingSession : public SettingSession {
 public:
  // A session whose workers initialised their communicator.
  // `choice`: where the default setting's cases learn what NCCL chose (null for other settings).
  // `groups`: the layouts of the sweep's group specs other than world, whose communicators the
  // workers split.
  NcclSettingSession(ControlPlane& control, std::unique_ptr<WorkerGroup> workers, const NcclRunOptions& run,
                     int nranks, std::unique_ptr<ChoiceCapture> choice = nullptr,
                     std::vector<GroupLayout> groups = {}, double contend = 0);
  // A setting whose init failed everywhere: every case carries that failure.
  NcclSettingSession(const StepOutcome& init_failure, int nranks);
  ~NcclSettingSession() override;

  CaseResult run_case(const Case& c, const Setting& setting, const SweepOptions& options) override;
  // Every worker replays the steps (the "steps" request); a failed step throws BackendError with
  // its agreed reason (a fatal one stops the setting's workers, as for a case).
  StepTimes run_steps(const std::vector<StepCall>& calls, std::size_t steps, std::size_t warmup) override;

 private:
  StepOutcome step(const std::string& name, const std::string& request, const CombineData& combine,
                   nlohmann::json& data);
  CaseResult stopped_case(const Case& c, const Setting& setting) const;
  CaseResult failed_step(const Case& c, const Setting& setting, StepOutcome outcome);
  CaseResult with_choice(CaseResult result);
  const GroupLayout* layout_of(const GroupSpec& spec) const;
  CaseResult measure(const Case& c, const Setting& setting, const SweepOptions& options, std::int64_t wrong);

  ControlPlane* control_ = nullptr;
  std::unique_ptr<WorkerGroup> workers_;
  NcclRunOptions run_;
  int nranks_ = 1;
  CaseStatus stopped_status_ = CaseStatus::Skipped;
  std::string stopped_reason_;
  std::unique_ptr<ChoiceCapture> choice_;  // destroyed before the workers' group; they have finished by then
  std::vector<GroupLayout> groups_;
  double contend_ = 0;  // each worker's share of its GPU under --contend (F / ranks on that GPU)
};

}  // namespace commtune
