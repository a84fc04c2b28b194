#include "sweep/resume.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "control/typed_messages.hpp"
#include "core/errors.hpp"
#include "results/results_json.hpp"
#include "tune/provenance_diff.hpp"

namespace commtune {
namespace {

using CaseKey =
    std::tuple<std::string, Collective, std::uint64_t, DataType, ReduceOp, int, Placement, std::string>;

CaseKey key_of(const std::string& setting, const Case& c) {
  return {setting, c.collective, c.bytes, c.dtype, c.op, c.root, c.placement, c.group.name()};
}

// Provenance that differs between any two runs on one machine: not a sign of other hardware.
bool varies_between_runs(const std::string& field) {
  static const std::vector<std::string> kVarying{"argv",         "start_time",     "/pid",
                                                 "layout/ranks", "backend_choice", "config/",
                                                 "ceiling",      "free",           "numa_memory_bytes"};
  return std::any_of(kVarying.begin(), kVarying.end(),
                     [&](const std::string& k) { return field.find(k) != std::string::npos; });
}

std::optional<std::string> provenance_refusal(const nlohmann::json& old, const nlohmann::json& now) {
  for (const ProvenanceDifference& d : provenance_differences(old, now))
    if (!varies_between_runs(d.field))
      return "it was measured on other hardware or software: provenance " + d.field + " was " + d.baseline +
             ", is " + d.current;
  return std::nullopt;
}

std::optional<std::string> settings_refusal(const ResultsDocument& old, const Plan& plan) {
  if (old.settings.size() != plan.settings.size())
    return "it has other settings (" + std::to_string(old.settings.size()) + ", this plan " +
           std::to_string(plan.settings.size()) + ")";
  for (std::size_t i = 0; i < old.settings.size(); ++i)
    if (to_json(old.settings[i]) != to_json(plan.settings[i]))
      return "its setting " + old.settings[i].name + " is not this plan's " + plan.settings[i].name;
  return std::nullopt;
}

// The budget a sweep was fitted into is not part of its plan: the options it fitted are.
nlohmann::json without_budget(nlohmann::json sweep) {
  sweep.erase("budget_s");
  return sweep;
}

std::optional<std::string> plan_refusal(const ResultsDocument& old, const Plan& plan, BackendKind backend) {
  if (old.complete) return "it is complete: nothing to resume";
  if (old.backend != backend)
    return "it ran on the " + std::string(name_of(old.backend)) + " backend, this sweep on " +
           std::string(name_of(backend));
  if (without_budget(old.sweep) != without_budget(to_json(plan.options))) {
    std::string why = "its sweep options are not this plan's (sizes, collectives, sampling, racing)";
    if (old.sweep.contains("budget_s")) why += "; a sweep fitted to --budget resumes with the same --budget";
    return why;
  }
  if (auto s = settings_refusal(old, plan)) return s;
  std::set<CaseKey> planned;
  for (const Case& c : plan.cases) planned.insert(key_of(plan.settings[c.setting_index].name, c));
  for (std::size_t i = 0; i < old.cases.size(); ++i) {
    if (old.cases[i].spec.group.is_world() && old.cases[i].nranks != plan.nranks)
      return "it ran on " + std::to_string(old.cases[i].nranks) + " ranks, this sweep on " +
             std::to_string(plan.nranks);
    if (!planned.count(key_of(old.cases[i].setting, old.cases[i].spec)))
      return "its cases[" + std::to_string(i) + "] is not in this plan";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> resume_refusal(const ResultsDocument& old, const Plan& plan, BackendKind backend,
                                          const nlohmann::json& provenance) {
  if (auto p = plan_refusal(old, plan, backend)) return p;
  return provenance_refusal(old.provenance, provenance);
}

Plan remaining_plan(const Plan& plan, const ResultsDocument& old) {
  std::set<CaseKey> finished;
  for (const CaseResult& r : old.cases) finished.insert(key_of(r.setting, r.spec));
  Plan out = plan;
  out.cases.clear();
  for (const Case& c : plan.cases)
    if (!finished.count(key_of(plan.settings[c.setting_index].name, c))) out.cases.push_back(c);
  return out;
}

Resumed resume_sweep(const std::string& path, const Plan& plan, BackendKind backend,
                     const nlohmann::json& provenance, ControlPlane& control) {
  Resumed out;
  std::optional<std::string> failure;
  std::vector<std::size_t> remaining;
  if (control.rank() == 0) {
    try {
      ResultsDocument old = load_results(path);
      if (auto why = resume_refusal(old, plan, backend, provenance))
        throw InputError(path + ": refused: " + *why);
      for (const Case& c : remaining_plan(plan, old).cases) remaining.push_back(c.index);
      out.kept = std::move(old.cases);
    } catch (const InputError& e) {
      failure = std::string("--resume: ") + e.what();
    }
  }
  if (const auto agreed = control.agree_on_failure(failure)) throw InputError(*agreed);
  const std::vector<std::size_t> indices = broadcast_value(control, remaining);
  out.remaining = plan;
  out.remaining.cases.clear();
  for (const std::size_t i : indices) out.remaining.cases.push_back(plan.cases.at(i));
  return out;
}

}  // namespace commtune
