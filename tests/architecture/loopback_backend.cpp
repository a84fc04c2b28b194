// The test backend of docs/architecture.md's "A new backend" recipe. backend_recipe.py copies it to
// src/backend/loopback/ of a scratch tree whose BackendKind has a Loopback value and compiles it
// there (-fsyntax-only); no build compiles it here, where BackendKind::Loopback does not exist.
#include <memory>

#include "backend/backend.hpp"

namespace commtune {
namespace {

// A setting that measures nothing: every case comes back run, with no samples.
class LoopbackSession : public SettingSession {
 public:
  CaseResult run_case(const Case& c, const Setting& setting, const SweepOptions& /*options*/) override {
    CaseResult result;
    result.spec = c;
    result.setting = setting.name;
    return result;
  }
};

// One rank, no memory limit, the default costs: the least a Backend must say of itself.
class LoopbackBackend : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::Loopback; }
  PlanLimits limits() const override { return PlanLimits{}; }
  CostModel cost_model() const override { return CostModel{}; }
  nlohmann::json provenance() const override { return {{"backend", name_of(kind())}}; }
  void validate(const Setting& /*setting*/, const SweepOptions& /*options*/) const override {}
  std::unique_ptr<SettingSession> open(const Setting& /*setting*/, const SweepOptions& /*options*/) override {
    return std::make_unique<LoopbackSession>();
  }
};

}  // namespace

// What a launch would hold: a Backend that is no longer abstract and says which backend it is.
std::unique_ptr<Backend> make_loopback_backend() { return std::make_unique<LoopbackBackend>(); }

}  // namespace commtune
