#pragma once
// What one `commtune doctor` run concludes, whatever backend measured it: the findings, the path's
// ceiling and the maps. The one JSON writer of `doctor --json` (inputs/doctor_report_json reads it
// back) and the one printer of the findings.
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
struct NodeGpuMatrix {
  std::string host;
  PairMatrix matrix;
};

struct NodeGpuMaps {
  std::vector<NodeGpuMatrix> nodes;    // one per node of 2 or more ranks
  std::optional<std::string> failure;  // why the maps ended early
  std::optional<Ceiling> ceiling;      // the path inside a node (NVLink or PCIe)
};

struct DoctorReport {
  BackendKind backend = BackendKind::Mpi;
  std::vector<Finding> findings;  // ranked, most severe first
  std::optional<Ceiling> ceiling;
  std::optional<PairMatrix> pairwise;  // the main map: the nodes, or the ranks of one node
  std::optional<std::string> pairwise_failure;
  std::optional<NodeGpuMaps> node_gpus;
};

// {"tool": "commtune doctor", "backend", "findings", "healthy", "ceiling", "pairwise",
//  "pairwise_failure", "node_gpus": {"maps": [{"host", "pairwise"}], "ceiling", "failure"}}.
nlohmann::json to_json(const DoctorReport& report);

// The findings as the terminal shows them, most severe first.
void print_findings(const std::vector<Finding>& findings, std::ostream& out);

// 0: nothing needs attention; 1: a warning or worse.
int doctor_exit_code(const DoctorReport& report);

// A finding read back from its JSON (to_json of doctor/finding): the checks' findings of every
// node travel to rank 0 this way. Throws InputError naming `where` on another shape.
Finding finding_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
