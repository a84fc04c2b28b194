#pragma once
// One sweep as each of its stages sees it (the runner, the finalists' rounds, the tuning at the
// end): the plan, the backend, the control plane and this rank's stop request.
#include <functional>

#include "backend/backend.hpp"
#include "control/control_plane.hpp"

namespace commtune {

struct SweepRun {
  const Plan& plan;
  Backend& backend;
  ControlPlane& control;
  std::function<bool()> interrupted;  // this rank's local stop request

  // The same sweep on another plan (the finalists' rounds).
  SweepRun with_plan(const Plan& other) const { return SweepRun{other, backend, control, interrupted}; }
};

}  // namespace commtune
