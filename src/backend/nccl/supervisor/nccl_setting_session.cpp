#include "backend/nccl/supervisor/nccl_setting_session.hpp"

#include <algorithm>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/step_agreement.hpp"
#include "measure/sampler.hpp"

namespace commtune {
namespace {

// Carries a failed timed batch out of sample_until_stable; every rank throws it alike.
struct BatchFailed {
  StepOutcome outcome;
};

class SupervisedBatchTimer : public BatchTimer {
 public:
  using RunBatch =
      std::function<StepOutcome(std::size_t iterations, std::size_t block, nlohmann::json& data)>;
  SupervisedBatchTimer(RunBatch run, bool graph, int nranks)
      : run_(std::move(run)), graph_(graph), nranks_(nranks) {}

  // A graph is timed from outside only: each batch gives one mean.
  SampleUnit unit() const override { return graph_ ? SampleUnit::BatchMean : SampleUnit::Iteration; }

  // CUDA events: small collectives are timed in blocks (measure/sampler.hpp, block_for).
  double resolution_s() const override { return kCudaEventResolutionS; }

  BatchTimes time_batch(std::size_t iterations) override { return time_blocks(iterations, 1); }

  BatchTimes time_blocks(std::size_t iterations, std::size_t block) override {
    nlohmann::json data;
    const StepOutcome outcome = run_(iterations, block, data);
    if (!outcome.ok()) throw BatchFailed{outcome};
    const TimedBatch batch = timed_batch_from_json(data);
    BatchTimes out{batch.seconds, batch.loop_seconds, {}};
    for (const RankCpu& rank :
         rank_cpu_of(data, nranks_)) {  // each worker's host thread: its share of the CPU
      out.rank_cpu_s.push_back(rank.cpu_s);
      out.rank_wall_s.push_back(rank.wall_s);
    }
    return out;
  }

 private:
  RunBatch run_;
  bool graph_;
  int nranks_;
};

// This supervisor's workers' replies combined; each body that is an object gets its worker's
// global rank as "rank" (what the combiners of per-rank figures key on).
nlohmann::json local_data(const std::vector<WorkerReply>& replies, const WorkerGroup& workers,
                          const CombineData& combine, StepOutcome& outcome) {
  if (!outcome.ok()) return nullptr;
  std::vector<nlohmann::json> bodies;
  for (std::size_t w = 0; w < replies.size(); ++w) {
    bodies.push_back(replies[w].body);
    if (bodies.back().is_object()) bodies.back()["rank"] = workers.rank_of(w);
  }
  try {
    return combine(bodies);
  } catch (const std::exception& e) {
    outcome = StepOutcome{StepStatus::Failed, std::string("unexpected worker reply: ") + e.what(), true};
    return nullptr;
  }
}

}  // namespace

NcclSettingSession::NcclSettingSession(ControlPlane& control, std::unique_ptr<WorkerGroup> workers,
                                       const NcclRunOptions& run, int nranks,
                                       std::unique_ptr<ChoiceCapture> choice)
    : control_(&control),
      workers_(std::move(workers)),
      run_(run),
      nranks_(nranks),
      choice_(std::move(choice)) {}

NcclSettingSession::NcclSettingSession(const StepOutcome& init_failure, int nranks)
    : nranks_(nranks),
      stopped_status_(init_failure.case_status()),
      stopped_reason_("setting not applied: " + init_failure.reason) {}

NcclSettingSession::~NcclSettingSession() {
  if (workers_ && workers_->alive())
    workers_->finish(std::min(to_milliseconds(run_.case_timeout_s), std::chrono::milliseconds(10000)));
}

StepOutcome NcclSettingSession::step(const std::string& name, const std::string& request,
                                     const CombineData& combine, nlohmann::json& data) {
  std::vector<WorkerReply> replies;
  StepOutcome outcome = workers_->exchange({request}, to_milliseconds(run_.case_timeout_s), name, replies);
  const nlohmann::json mine = local_data(replies, *workers_, combine, outcome);
  const AgreedStep agreed = agree_step(*control_, outcome, mine, combine);
  if (agreed.outcome.fatal) workers_->kill_all();
  data = agreed.data;
  return agreed.outcome;
}

CaseResult NcclSettingSession::stopped_case(const Case& c, const Setting& setting) const {
  return failed_case(c, setting.name, nranks_, stopped_status_, stopped_reason_);
}

CaseResult NcclSettingSession::failed_step(const Case& c, const Setting& setting,
                                           const StepOutcome& outcome) {
  if (outcome.fatal) {
    stopped_status_ = CaseStatus::Skipped;
    stopped_reason_ = "not run: the setting's workers were stopped after case " + std::to_string(c.index) +
                      ": " + outcome.reason;
  }
  return failed_case(c, setting.name, nranks_, outcome.case_status(), outcome.reason);
}

// A measured case of the default setting carries what NCCL chose, or why that is not known; reading
// the record never fails the case.
CaseResult NcclSettingSession::with_choice(CaseResult result) {
  if (choice_) result.nccl_choice = choice_->choice_for(result.spec);
  return result;
}

CaseResult NcclSettingSession::run_case(const Case& c, const Setting& setting, const SweepOptions& options) {
  if (!workers_ || !workers_->alive()) return stopped_case(c, setting);
  nlohmann::json data;
  const CaseRequest request{c, options.check, run_.graph, options.sizes.max_bytes};
  StepOutcome outcome = step("prepare", request_line("prepare", {{"case", to_json(request)}}), no_data, data);
  if (!outcome.ok()) return failed_step(c, setting, outcome);
  std::int64_t wrong = -1;
  if (options.check) {
    outcome = step("check", request_line("check"), sum_wrong, data);
    if (!outcome.ok()) return failed_step(c, setting, outcome);
    wrong = data.at("wrong").get<std::int64_t>();
  }
  SupervisedBatchTimer timer(
      [&](std::size_t iterations, std::size_t block, nlohmann::json& batch) {
        return step("timing", time_request_line(iterations, block), combine_timed_batches, batch);
      },
      run_.graph, nranks_);
  CaseResult measured;
  try {
    measured = with_choice(
        measured_case(c, setting.name, nranks_, sample_until_stable(timer, options.stopping), wrong));
  } catch (const BatchFailed& failure) {
    return failed_step(c, setting, failure.outcome);
  }
  // The workers free the case's buffers now, not at the next prepare: a setting kept open for a
  // later racing round holds its communicator only. The measurement stands whatever this says; a
  // fatal failure stops the setting's workers for the cases after it.
  const StepOutcome released = step("release", request_line("release"), no_data, data);
  if (!released.ok()) failed_step(c, setting, released);
  return measured;
}

}  // namespace commtune
