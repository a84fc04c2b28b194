#include "writers/straggler_report.hpp"

#include <sstream>

#include "core/types.hpp"

namespace commtune {
namespace {

// Arrivals (the MPI host backend), or the ranks' CPU shares alone (the NCCL workers: their
// collectives run from a queue on the GPU, with no host-side arrival to time).
bool has_rank_evidence(const CaseResult& c) { return c.measured() && (c.arrivals || !c.cpu_share.empty()); }

}  // namespace

std::vector<CaseArrivals> arrivals_of(const std::vector<CaseResult>& cases) {
  std::vector<CaseArrivals> out;
  for (const auto& c : cases)
    if (has_rank_evidence(c))
      out.push_back(
          CaseArrivals{std::string(name_of(c.spec.collective)) + " " + std::to_string(c.spec.bytes) + " B",
                       c.time_us.median, c.arrivals.value_or(ArrivalTally{}), c.cpu_share});
  return out;
}

std::vector<std::string> rank_hosts(const nlohmann::json& layout) {
  std::vector<std::string> hosts;
  if (!layout.is_object() || !layout.contains("ranks") || !layout["ranks"].is_array()) return hosts;
  for (const auto& rank : layout["ranks"]) {
    if (!rank.is_object() || !rank.contains("rank") || !rank["rank"].is_number_integer()) continue;
    const auto r = rank["rank"].get<std::int64_t>();
    if (r < 0 || r >= static_cast<std::int64_t>(layout["ranks"].size())) continue;
    if (hosts.size() <= static_cast<std::size_t>(r)) hosts.resize(static_cast<std::size_t>(r) + 1);
    if (rank.contains("host") && rank["host"].is_string()) hosts[static_cast<std::size_t>(r)] = rank["host"];
  }
  return hosts;
}

void write_straggler_findings(const std::vector<Finding>& findings, std::ostream& out) {
  std::ostringstream text;  // one write: a launcher that merges the streams never splits it
  for (const auto& f : findings)
    text << "#\n# [" << name_of(f.severity) << "] " << f.id << " " << f.subject
         << "\n#   evidence: " << f.evidence << "\n#   do: " << f.action << "\n";
  out << text.str() << std::flush;
}

void StragglerReport::begin(const RunHeader& header) {
  if (header.provenance.is_object() && header.provenance.contains("layout"))
    hosts_ = rank_hosts(header.provenance["layout"]);
}

void StragglerReport::case_finished(const CaseResult& result) {
  if (has_rank_evidence(result)) cases_.push_back(result);
}

void StragglerReport::end(const RunSummary&) {
  write_straggler_findings(find_stragglers(arrivals_of(cases_), hosts_), out_);
}

}  // namespace commtune
