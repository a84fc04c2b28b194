// From what a backend's doctor measured to the findings, the terminal and the --json: the same for
// every backend (launch/doctor_parts.hpp).
#include <algorithm>
#include <iostream>

#include "ceiling/ceiling.hpp"
#include "doctor/measured_findings.hpp"
#include "doctor/straggler_finding.hpp"
#include "launch/doctor_parts.hpp"
#include "measure/bandwidth.hpp"
#include "writers/straggler_report.hpp"
#include "core/output_file.hpp"

namespace commtune {
namespace {

// The all-reduce's peak against the ceiling; a case that did not measure is a finding of its own.
std::vector<Finding> sweep_findings(const DoctorMeasurement& m) {
  std::vector<Finding> out;
  double peak = 0;
  for (const auto& c : m.cases) {
    if (c.measured()) {
      peak = std::max(peak, c.busbw_gbps);
      continue;
    }
    const std::string size = std::to_string(c.spec.bytes);
    out.push_back(Finding{"sweep-case-failed", Severity::Warning, "allreduce " + size + " B",
                          std::string(name_of(c.status)) + ": " + c.reason,
                          "the doctor's sweep did not measure this size: run it alone, `commtune sweep "
                          "--backend " +
                              std::string(name_of(m.backend)) + " --collectives allreduce -b " + size +
                              " -e " + size + "`"});
  }
  if (m.ceiling && peak > 0)
    out.push_back(
        Finding{"efficiency", Severity::Info, "allreduce", efficiency_verdict(peak, *m.ceiling), "-"});
  return out;
}

Finding map_failure(const std::string& reason, BackendKind backend) {
  return Finding{"pairwise-map-failed", Severity::Warning,
                 "pairwise map (" + std::string(traits_of(backend).label) + ")", reason,
                 "the named rank stopped the map: run the doctor again (with NCCL_DEBUG=INFO on NCCL), and "
                 "a sweep on that rank's node alone"};
}

// A node's GPU map: its links against the ceiling inside a node (its slow GPUs and pairs are
// re-measured: NodeGpuMeasurement::confirmed).
std::vector<Finding> node_gpu_findings(const PairMatrix& m, const std::string& host,
                                       const std::optional<Ceiling>& ceiling) {
  std::vector<Finding> out;
  for (const Finding& f : find_links_below_ceiling(m, ceiling)) out.push_back(in_node(f, host));
  return out;
}

// On an oversubscribed node the scheduler, not a rank or a link, decides who arrives last and how
// fast two ranks exchange: a straggler, a slow pair or a slow node there is information, with the
// reason (what the re-measure already found transient stays as it is).
void mark_oversubscribed(std::vector<Finding>& found, const std::string& what) {
  for (auto& f : found) {
    if (f.id.ends_with("-transient")) continue;
    f.id += "-oversubscribed";
    f.severity = Severity::Info;
    f.evidence += "; but a node runs more ranks than it has cores, so the scheduler decides " + what;
    f.action = "run one rank per core (or fewer) and run the doctor again";
  }
}

// The node maps as the report keeps them: each matrix's medians and spreads.
NodeGpuMaps node_gpu_maps(const NodeGpuMeasurement& measured) {
  NodeGpuMaps out{.ceiling = measured.ceiling, .failure = measured.failure};
  for (const NodeGpuMatrix& node : measured.nodes)
    out.maps.push_back(NodeGpuMap{.host = node.host, .map = pair_map_of(node.matrix)});
  return out;
}

void append(std::vector<Finding>& to, const std::vector<Finding>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

}  // namespace

Finding in_node(Finding f, const std::string& host) {
  if (f.id.rfind("slow-node", 0) == 0) f.id = "slow-gpu" + f.id.substr(std::string("slow-node").size());
  f.subject += " (GPUs of node " + host + ")";
  return f;
}

std::vector<Finding> measured_findings(const DoctorMeasurement& m) {
  std::vector<Finding> out;
  if (m.map_failure) out.push_back(map_failure(*m.map_failure, m.backend));
  append(out, sweep_findings(m));
  std::vector<Finding> confirmed = m.confirmed;
  if (m.oversubscribed) mark_oversubscribed(confirmed, "how fast two ranks exchange");
  append(out, confirmed);
  if (m.map) append(out, find_links_below_ceiling(*m.map, m.ceiling));  // slow pairs: in `confirmed`
  if (m.node_gpus) {
    if (m.node_gpus->failure) out.push_back(map_failure(*m.node_gpus->failure, m.backend));
    append(out, m.node_gpus->confirmed);
    for (const NodeGpuMatrix& node : m.node_gpus->nodes)
      append(out, node_gpu_findings(node.matrix, node.host, m.node_gpus->ceiling));
  }
  std::vector<Finding> stragglers = find_stragglers(arrivals_of(m.cases), m.hosts);
  if (m.oversubscribed) mark_oversubscribed(stragglers, "who arrives last");
  append(out, stragglers);
  return out;
}

std::string more_ranks_for_doctor(BackendKind backend) {
  switch (backend) {
    case BackendKind::Mpi:
      return "mpirun -np N --map-by ppr:1:node commtune doctor (the nodes), or mpirun -np N commtune doctor "
             "(the ranks of one node)";
    case BackendKind::Nccl:
      return "one rank per GPU (more GPUs visible, or --ranks N to share them), or mpirun/srun commtune "
             "doctor";
  }
  return "";
}

Finding one_rank_finding(BackendKind backend) {
  return Finding{"one-rank", Severity::Info, "the doctor's map and sweep",
                 "one rank: no link between ranks to measure, so no pairwise map, sweep or efficiency",
                 more_ranks_for_doctor(backend)};
}

int conclude_doctor(std::vector<Finding> findings, const DoctorMeasurement& m, const std::string& json_path) {
  append(findings, measured_findings(m));
  rank_findings(findings);
  const DoctorReport report{
      .backend = m.backend,
      .findings = std::move(findings),
      .ceiling = m.ceiling,
      .pairwise = m.map ? std::optional(pair_map_of(*m.map)) : std::nullopt,
      .pairwise_failure = m.map_failure,
      .node_gpus = m.node_gpus ? std::optional(node_gpu_maps(*m.node_gpus)) : std::nullopt};
  print_findings(report.findings, std::cout);
  if (!json_path.empty()) {
    write_output_file(json_path, to_json(report).dump(2) + "\n", OutputPolicy{});
    std::cerr << "commtune: findings written to " << json_path << "\n";
  }
  return doctor_exit_code(report);
}

}  // namespace commtune
