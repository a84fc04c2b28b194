#pragma once
// Where a sweep's results go. Measurement calls these hooks; sinks only render. Every hook has a
// no-op default so a sink implements only what it needs. Only rank 0 owns sinks.
#include <string>

#include <nlohmann/json.hpp>

#include "core/backend_kind.hpp"
#include "plan/plan.hpp"
#include "results/case_result.hpp"

namespace commtune {

struct RunHeader {
  const Plan& plan;
  BackendKind backend = BackendKind::Mpi;
  nlohmann::json provenance;
  std::size_t runs = 1;  // --repeat: the plan runs this many times
};

struct RunSummary {
  std::size_t measured = 0, wrong_data = 0, failed = 0;
  bool complete = true;  // false when interrupted
};

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void begin(const RunHeader&) {}
  virtual void run_started(std::size_t /*run*/, std::size_t /*runs*/) {}  // repeated sweeps, 0-based
  // Racing: round `round` (0-based) of at most `rounds` starts, measuring `cases` cases.
  virtual void round_started(std::size_t /*round*/, std::size_t /*rounds*/, std::size_t /*cases*/) {}
  virtual void setting_started(const Setting&) {}
  virtual void case_finished(const CaseResult&) {}
  // Something the sweep decided that the user should hear (racing ended by the budget).
  virtual void notice(const std::string& /*text*/) {}
  virtual void end(const RunSummary&) {}
};

}  // namespace commtune
