#include "backend/nccl/supervisor/layout_skips.hpp"

#include "core/errors.hpp"

namespace commtune {
namespace {

class SkippingSession : public SettingSession {
 public:
  SkippingSession(std::unique_ptr<SettingSession> inner, LayoutSkips skips, int nranks)
      : inner_(std::move(inner)), skips_(std::move(skips)), nranks_(nranks) {}

  CaseResult run_case(const Case& c, const Setting& setting, const SweepOptions& options) override {
    if (const auto skip = skips_.find(c.collective); skip != skips_.end())
      return failed_case(c, setting.name, nranks_, CaseStatus::Skipped,
                         "not applicable here: " + skip->second);
    if (!inner_) throw BackendError("setting '" + setting.name + "' has no workers");
    return inner_->run_case(c, setting, options);
  }

  // A replay runs every call or none: a call NCCL cannot run in this layout fails it.
  StepTimes run_steps(const std::vector<StepCall>& calls, std::size_t steps, std::size_t warmup) override {
    for (const StepCall& call : calls)
      if (const auto skip = skips_.find(call.spec.collective); skip != skips_.end())
        throw BackendError("replay: " + std::string(name_of(call.spec.collective)) +
                           " is not applicable here: " + skip->second);
    if (!inner_) throw BackendError("the setting has no workers");
    return inner_->run_steps(calls, steps, warmup);
  }

 private:
  std::unique_ptr<SettingSession> inner_;
  LayoutSkips skips_;
  int nranks_;
};

}  // namespace

LayoutSkips layout_skips(const Setting& setting, const SweepOptions& options, const NcclLayout& layout) {
  LayoutSkips skips;
  for (Collective c : options.collectives)
    if (const auto conflict = layout_conflict(setting, c, layout, ReduceKind{options.dtype, options.op}))
      skips.emplace(c, *conflict);
  return skips;
}

bool skips_everything(const LayoutSkips& skips, const Setting& setting, const SweepOptions& options) {
  for (Collective c : options.collectives)
    if (setting.applies_to(c) && !skips.count(c)) return false;
  return true;
}

std::unique_ptr<SettingSession> skipping(std::unique_ptr<SettingSession> inner, LayoutSkips skips,
                                         int nranks) {
  if (skips.empty()) return inner;
  return std::make_unique<SkippingSession>(std::move(inner), std::move(skips), nranks);
}

}  // namespace commtune
