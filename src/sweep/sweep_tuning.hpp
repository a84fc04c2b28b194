#pragma once
// Tuning at the end of a sweep: rank 0 picks the finalists from the sweep's cases, every rank
// re-measures them with the default in an interleaved round, and rank 0 prints the tuner's
// verdict and writes it next to the results file (RESULTS.tune.json, for `commtune export`).
// Sweeps with only the default setting skip it.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/backend.hpp"
#include "report/result_sink.hpp"
#include "control/control_plane.hpp"

namespace commtune {

// Keeps every finished case (on the rank that owns it) for the end-of-sweep tuning.
class SweptCases : public ResultSink {
 public:
  explicit SweptCases(std::vector<CaseResult>& out) : out_(out) {}
  void case_finished(const CaseResult& r) override { out_.push_back(r); }

 private:
  std::vector<CaseResult>& out_;
};

struct SweepTuning {
  const Plan& plan;
  Backend& backend;
  ControlPlane& control;
  const std::vector<CaseResult>& swept;  // rank 0's; empty elsewhere
  std::string backend_name;
  nlohmann::json provenance;
  std::string results_path;  // rank 0: where the sweep wrote
  std::function<bool()> interrupted;
};

// Every rank calls it after the sweep, in step. Does nothing after an interrupted sweep.
void tune_after_sweep(const SweepTuning& tuning, const RunSummary& summary);

}  // namespace commtune
