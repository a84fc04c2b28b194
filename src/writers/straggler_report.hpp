#pragma once
// The straggler finding of a sweep (doctor/straggler_finding), printed on its own after the table:
// a few comment lines when a rank is named, nothing otherwise. Also what the doctor needs to
// judge its own cases: their arrivals and the ranks' hosts.
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "doctor/straggler_finding.hpp"
#include "writers/result_sink.hpp"

namespace commtune {

// The measured cases that tallied their arrivals or measured each rank's share of the CPU.
std::vector<CaseArrivals> arrivals_of(const std::vector<CaseResult>& cases);
// Each rank's host from a provenance layout (host/provenance's rank_layout); empty where absent.
std::vector<std::string> rank_hosts(const nlohmann::json& layout);

void write_straggler_findings(const std::vector<Finding>& findings, std::ostream& out);

class StragglerReport : public ResultSink {
 public:
  explicit StragglerReport(std::ostream& out) : out_(out) {}
  void begin(const RunHeader& header) override;
  void case_finished(const CaseResult& result) override;
  void end(const RunSummary& summary) override;

 private:
  std::ostream& out_;
  std::vector<std::string> hosts_;
  std::vector<CaseResult> cases_;
};

}  // namespace commtune
