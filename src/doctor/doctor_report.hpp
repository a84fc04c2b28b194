#pragma once
// What one `commtune doctor` run concludes, whatever backend measured it: the findings, the path's
// ceiling and the maps (their medians and spreads: PairMap). The one type of the doctor's JSON:
// `doctor --json` writes it (to_json) and `commtune report` reads it back (doctor_report_from_json);
// and the one printer of the findings.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ceiling/ceiling.hpp"
#include "core/backend_kind.hpp"
#include "doctor/finding.hpp"
#include "pairwise/pair_matrix.hpp"

namespace commtune {

// The map of the GPUs inside one node (NCCL doctor, jobs of several nodes).
struct NodeGpuMap {
  std::string host;
  PairMap map;
};

struct NodeGpuMaps {
  std::vector<NodeGpuMap> maps;        // one per node of 2 or more ranks
  std::optional<Ceiling> ceiling;      // the path inside a node (NVLink or PCIe)
  std::optional<std::string> failure;  // why the maps ended early
};

struct DoctorReport {
  BackendKind backend = BackendKind::Mpi;
  std::vector<Finding> findings;  // ranked, most severe first
  std::optional<Ceiling> ceiling;
  std::optional<PairMap> pairwise;  // the main map: the nodes, or the ranks of one node
  std::optional<std::string> pairwise_failure;
  std::optional<NodeGpuMaps> node_gpus;

  bool healthy() const { return !needs_attention(findings); }  // written as "healthy"
};

// {"tool": "commtune doctor", "backend", "findings", "healthy", "ceiling", "pairwise",
//  "pairwise_failure", "node_gpus": {"maps": [{"host", "pairwise"}], "ceiling", "failure"}}.
nlohmann::json to_json(const DoctorReport& report);

// A JSON document that says it is a doctor report ("tool": "commtune doctor").
bool is_doctor_json(const nlohmann::json& j);
// Validated like every input (InputError naming `origin` and the JSON path): "tool", a known
// backend (none: mpi, as the MPI doctor wrote before the NCCL doctor came), known severities,
// "healthy" as the findings make it, each map as pair_map_from_json reads it (at most
// kMaxMapMembers node maps). Fields it does not know are left alone.
DoctorReport doctor_report_from_json(const nlohmann::json& j, const std::string& origin);

// The findings as the terminal shows them, most severe first.
void print_findings(const std::vector<Finding>& findings, std::ostream& out);

// 0: nothing needs attention; 1: a warning or worse.
int doctor_exit_code(const DoctorReport& report);

}  // namespace commtune
