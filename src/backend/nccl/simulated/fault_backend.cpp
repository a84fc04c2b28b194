#include "backend/nccl/simulated/fault_backend.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "backend/nccl/simulated/test_faults.hpp"

namespace commtune {
namespace {

void inject_supervisor_fault(const Setting& setting, int rank) {
  const auto knob = setting.knobs.find(kTestFaultKnob);
  if (knob == setting.knobs.end()) return;
  const TestFault fault = parse_test_fault(knob->second);
  if (!is_supervisor_fault(fault.mode) || !fault.applies_to(rank)) return;
  std::cerr << "commtune: rank " << rank << ": test fault " << knob->second << " (on purpose)\n";
  if (fault.mode == FaultMode::SupervisorExit) std::_Exit(70);
  while (true) pause();
}

class FaultBackend : public Backend {
 public:
  FaultBackend(std::unique_ptr<Backend> inner, int rank) : inner_(std::move(inner)), rank_(rank) {}
  BackendKind kind() const override { return inner_->kind(); }
  PlanLimits limits() const override { return inner_->limits(); }
  CostModel cost_model() const override { return inner_->cost_model(); }
  nlohmann::json provenance() const override { return inner_->provenance(); }
  void validate(const Setting& setting, const SweepOptions& options) const override {
    inner_->validate(setting, options);
  }
  std::unique_ptr<SettingSession> open(const Setting& setting, const SweepOptions& options) override {
    inject_supervisor_fault(setting, rank_);
    return inner_->open(setting, options);
  }

 private:
  std::unique_ptr<Backend> inner_;
  int rank_;
};

}  // namespace

std::unique_ptr<Backend> with_supervisor_faults(std::unique_ptr<Backend> inner, int rank) {
  return std::make_unique<FaultBackend>(std::move(inner), rank);
}

}  // namespace commtune
