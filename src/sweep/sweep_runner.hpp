#pragma once
// Runs a plan: each setting in turn, each of its cases, every rank in step. A setting that cannot
// be applied or a case that fails is recorded with its reason (agreed by every rank) and the
// sweep goes on. Stops early, cleanly, when any rank is interrupted.
#include <functional>

#include "backend/backend.hpp"
#include "report/result_sink.hpp"
#include "control/control_plane.hpp"

namespace commtune {

struct SweepContext {
  const Plan& plan;
  Backend& backend;
  ControlPlane& control;
  ResultSink& sink;                       // rank 0's writers; a no-op sink elsewhere
  std::function<bool()> interrupted;      // this rank's local stop request
};

RunSummary run_sweep(const SweepContext& context);

}  // namespace commtune
