#pragma once
// One sweep as each of its stages sees it (the runner, the finalists' rounds, the tuning at the
// end): the plan, the backend, the control plane and this rank's stop request.
#include <chrono>
#include <functional>
#include <optional>

#include "backend/backend.hpp"
#include "control/control_plane.hpp"

namespace commtune {

class SessionCache;

// --budget as the running sweep keeps it: racing starts no round it cannot finish in the sweep's
// part of the budget, and stops the one that runs past it (sweep/raced_sweep); the finalists'
// re-measure then runs its rounds while they fit in the whole budget (sweep/confirm_round).
struct SweepBudget {
  using Clock = std::chrono::steady_clock;
  double seconds = 0;        // the whole budget
  double sweep_seconds = 0;  // its part for the sweep (the rest is kept for the re-measure)
  Clock::time_point start = Clock::now();
  CostModel model;

  double elapsed_s() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
  bool sweep_spent() const { return elapsed_s() >= sweep_seconds; }
};

struct SweepRun {
  const Plan& plan;
  Backend& backend;
  ControlPlane& control;
  std::function<bool()> interrupted;  // this rank's local stop request
  std::optional<SweepBudget> budget = std::nullopt;
  // Where the runner takes open settings from and gives them back (racing's rounds); null: each
  // setting is opened for its cases and closed after them.
  SessionCache* sessions = nullptr;
  // The stopping rule of each case where it is not the plan's: racing's round 0 stops a case once it
  // is clearly slower than the size's fastest so far (measure/stopping_rule's leader). Null: the
  // plan's.
  std::function<StoppingRule(const Case&)> case_rule = nullptr;

  // The same sweep on another plan (the finalists' rounds, racing's rounds), every case under it.
  SweepRun with_plan(const Plan& other) const {
    return SweepRun{other, backend, control, interrupted, budget, sessions, nullptr};
  }
  // The same sweep, stopping also when `stop` says so.
  SweepRun stopping_also(std::function<bool()> stop) const {
    auto first = interrupted;
    return SweepRun{plan,   backend,  control,  [first, stop] { return first() || stop(); },
                    budget, sessions, case_rule};
  }
  // The same sweep, keeping its settings open in `cache` between plans.
  SweepRun keeping_sessions(SessionCache& cache) const {
    return SweepRun{plan, backend, control, interrupted, budget, &cache, case_rule};
  }
  // The same sweep, each setting opened for its cases and closed after them.
  SweepRun without_sessions() const {
    return SweepRun{plan, backend, control, interrupted, budget, nullptr, case_rule};
  }
};

}  // namespace commtune
