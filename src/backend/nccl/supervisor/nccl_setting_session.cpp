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

// The seconds of each group of a case run on several at once, batch by batch; only the batches
// that became samples count (the last ones: warm-up and pilot batches come first).
class GroupBatches {
 public:
  GroupBatches(const GroupLayout& layout, int nranks) : layout_(layout), nranks_(nranks) {}
  void add(const nlohmann::json& combined) {
    batches_.push_back(slowest_per_group(layout_, rank_seconds_of(combined, nranks_)));
  }
  std::vector<std::vector<double>> of_samples(std::size_t samples) const {
    std::size_t first = batches_.size(), counted = 0;
    while (first > 0 && counted < samples) counted += batches_[--first].front().size();
    std::vector<std::vector<double>> seconds(layout_.groups.size());
    for (std::size_t b = first; b < batches_.size(); ++b)
      for (std::size_t g = 0; g < seconds.size(); ++g)
        seconds[g].insert(seconds[g].end(), batches_[b][g].begin(), batches_[b][g].end());
    return seconds;
  }

 private:
  const GroupLayout& layout_;
  int nranks_;
  std::vector<std::vector<std::vector<double>>> batches_;  // batch -> group -> seconds
};

// Where a failure of a grouped case sits: the spec, and the group of the rank blamed.
std::string group_context(const GroupLayout& layout, int rank) {
  std::string text = " [group spec '" + layout.spec.name() + "'";
  if (rank >= 0 && rank < static_cast<int>(layout.group_of_rank.size())) {
    const std::size_t g = static_cast<std::size_t>(layout.group_of_rank[static_cast<std::size_t>(rank)]);
    text += ": rank " + std::to_string(rank) + " is in group " + std::to_string(g) + " of " +
            std::to_string(layout.groups.size()) + ", ranks";
    for (int r : layout.groups[g].ranks) text += " " + std::to_string(r);
  }
  return text + "]";
}

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
                                       std::unique_ptr<ChoiceCapture> choice, std::vector<GroupLayout> groups,
                                       double contend)
    : control_(&control),
      workers_(std::move(workers)),
      run_(run),
      nranks_(nranks),
      choice_(std::move(choice)),
      groups_(std::move(groups)),
      contend_(contend) {}

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

CaseResult NcclSettingSession::failed_step(const Case& c, const Setting& setting, StepOutcome outcome) {
  if (const GroupLayout* layout = layout_of(c.group)) outcome.reason += group_context(*layout, outcome.rank);
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

const GroupLayout* NcclSettingSession::layout_of(const GroupSpec& spec) const {
  if (spec.is_world()) return nullptr;
  for (const GroupLayout& layout : groups_)
    if (layout.spec == spec) return &layout;
  throw BackendError("no communicator was split for group spec '" + spec.name() + "'");
}

// The timed batches until the stopping rule is met; a grouped case keeps every group's seconds and
// its figures are the slowest group's (results/case_result.hpp, grouped_case). Throws BatchFailed.
CaseResult NcclSettingSession::measure(const Case& c, const Setting& setting, const SweepOptions& options,
                                       std::int64_t wrong) {
  const GroupLayout* layout = layout_of(c.group);
  std::optional<GroupBatches> groups;
  if (layout) groups.emplace(*layout, nranks_);
  SupervisedBatchTimer timer(
      [&](std::size_t iterations, std::size_t block, nlohmann::json& batch) {
        const StepOutcome outcome = step("timing", time_request_line(iterations, block),
                                         layout ? combine_rank_batches : combine_timed_batches, batch);
        if (outcome.ok() && groups) groups->add(batch);
        return outcome;
      },
      run_.graph, nranks_);
  const SampleRun run = sample_until_stable(timer, options.stopping);
  if (!layout) return with_choice(measured_case(c, setting.name, nranks_, run, wrong));
  return grouped_case(c, setting.name, *layout, groups->of_samples(run.samples.size()), run, wrong);
}

StepTimes NcclSettingSession::run_steps(const std::vector<StepCall>& calls, std::size_t steps,
                                        std::size_t warmup) {
  if (!workers_ || !workers_->alive())
    throw BackendError(stopped_reason_.empty() ? "the setting's workers are stopped" : stopped_reason_);
  StepsRequest request{.calls = {}, .steps = steps, .warmup = warmup, .contend = contend_};
  for (const StepCall& call : calls) {
    layout_of(call.spec.group);  // throws for a spec the workers did not split
    request.calls.push_back({.spec = call.spec, .repeat = call.repeat});
  }
  std::vector<WorkerReply> replies;
  const double seconds = run_.case_timeout_s * static_cast<double>(1 + steps + warmup);
  StepOutcome outcome = workers_->exchange({request_line("steps", to_json(request))},
                                           to_milliseconds(seconds), "replayed steps", replies);
  const nlohmann::json mine = local_data(replies, *workers_, combine_replayed_steps, outcome);
  const AgreedStep agreed = agree_step(*control_, outcome, mine, combine_replayed_steps);
  if (agreed.outcome.fatal) {
    workers_->kill_all();
    stopped_reason_ = "not run: the setting's workers were stopped after a replay: " + agreed.outcome.reason;
  }
  if (!agreed.outcome.ok()) throw BackendError("replay: " + agreed.outcome.reason);
  const ReplayedSteps slowest = replayed_steps_from_json(agreed.data);
  return StepTimes{.step_seconds = slowest.step_seconds, .call_seconds = slowest.call_seconds};
}

CaseResult NcclSettingSession::run_case(const Case& c, const Setting& setting, const SweepOptions& options) {
  if (!workers_ || !workers_->alive()) return stopped_case(c, setting);
  nlohmann::json data;
  const CaseRequest request{.spec = c,
                            .check = options.check,
                            .graph = run_.graph,
                            .largest_bytes = options.sizes.max_bytes,
                            .contend = contend_};
  StepOutcome outcome = step("prepare", request_line("prepare", {{"case", to_json(request)}}), no_data, data);
  if (!outcome.ok()) return failed_step(c, setting, outcome);
  std::int64_t wrong = -1;
  if (options.check) {
    outcome = step("check", request_line("check"), sum_wrong, data);
    if (!outcome.ok()) return failed_step(c, setting, outcome);
    wrong = data.at("wrong").get<std::int64_t>();
  }
  CaseResult measured;
  try {
    measured = measure(c, setting, options, wrong);
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
