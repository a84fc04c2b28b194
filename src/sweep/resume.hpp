#pragma once
// --resume RESULTS.json: continue an interrupted sweep. The file must come from the same plan
// (backend, settings, sweep options, rank count: what the results file's header and cases say)
// on compatible hardware and software (provenance: hosts, library versions, environment, not the
// start time or process ids); its cases are kept as they are and the rest of the plan is
// measured, into a new results file that holds both (never the old one).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/control_plane.hpp"
#include "plan/plan.hpp"
#include "results/results_document.hpp"

namespace commtune {

struct Resumed {
  Plan remaining;                // the plan without the finished cases (every rank)
  std::vector<CaseResult> kept;  // the finished cases, in the old file's order (rank 0)
};

// Why `old` cannot be resumed by `plan` on `backend` with this run's `provenance`; nullopt when it can.
std::optional<std::string> resume_refusal(const ResultsDocument& old, const Plan& plan, BackendKind backend,
                                          const nlohmann::json& provenance);

// The plan's cases that `old` has not finished (matched by setting, collective, size, type, op,
// root and placement).
Plan remaining_plan(const Plan& plan, const ResultsDocument& old);

// Every rank calls it in step: rank 0 reads and checks the file, the others learn the outcome.
// Throws InputError (exit 2) on every rank when the file is bad or refused.
Resumed resume_sweep(const std::string& path, const Plan& plan, BackendKind backend,
                     const nlohmann::json& provenance, ControlPlane& control);

}  // namespace commtune
