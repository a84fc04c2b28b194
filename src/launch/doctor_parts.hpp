#pragma once
// The parts of `commtune doctor` that every backend's doctor shares: the system checks of every
// node, the re-measured slow-node finding, the small sweep, and the one way from what a backend
// measured (DoctorMeasurement) to the findings, the terminal and the --json (doctor/doctor_report).
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ceiling/ceiling.hpp"
#include "control/control_plane.hpp"
#include "doctor/doctor_report.hpp"
#include "doctor/finding.hpp"
#include "pairwise/pair_matrix.hpp"
#include "pairwise/round_robin.hpp"
#include "plan/sweep_options.hpp"
#include "results/case_result.hpp"

namespace commtune {

// The first rank of each node checks its node; rank 0 gets every node's findings, each subject
// prefixed with its host when there are several.
std::vector<Finding> system_findings(ControlPlane& control, const std::string& root);

// A slow node or a slow pair is re-measured before it is named, like the tuner's finalists. A slow
// node: a second whole map must find it again. A slow pair: measured again alone, one pair at a time
// with its ends against a third member (doctor/alone_rounds.hpp), it must still be slow; pairs that
// only lose to the pairs measured beside them (a shared route, shared CPUs) are not bad links. What
// is not seen again is information (`slow-node-transient`, `slow-pair-transient`). Every rank calls
// `measure_again` as rank 0 decides: with std::nullopt for a whole map, with rounds for those only.
using MeasureMapAgain =
    std::function<std::optional<PairMatrix>(const std::optional<std::vector<Round>>& rounds)>;
std::vector<Finding> confirmed_slow_nodes(ControlPlane& control, const std::optional<PairMatrix>& map,
                                          const MeasureMapAgain& measure_again);

// The same for several maps measured at once (the GPUs inside each node, one group each): per
// group, std::nullopt maps the group again whole, rounds measure those pairs alone, no rounds leave
// it out. A phase runs only where some group has something to measure, every group's at once.
// `maps` is rank 0's (every group's, in order; the other ranks pass none); it gets each group's
// findings, in the same order.
using GroupRounds = std::vector<std::optional<std::vector<Round>>>;
using MeasureMapsAgain = std::function<std::vector<std::optional<PairMatrix>>(const GroupRounds& rounds)>;
std::vector<std::vector<Finding>> confirmed_slow_links(ControlPlane& control,
                                                       const std::vector<PairMatrix>& maps,
                                                       const MeasureMapsAgain& measure_again);

// The doctor's one small sweep: the default setting's out-of-place all-reduce from 8 B to 1 MiB
// (64 KiB with --quick), every size for its whole time.
SweepConfig doctor_sweep(bool quick, BackendKind backend);

// A finding of a node's GPU map as the report names it: the subject ends "(GPUs of node H)", and a
// slow member of that map is a slow GPU (`slow-node` -> `slow-gpu`, `slow-node-transient` ->
// `slow-gpu-transient`).
Finding in_node(Finding f, const std::string& host);

// The maps of the GPUs inside each node as the NCCL doctor measured them (jobs of several nodes):
// each node's matrix keeps its samples for the findings; the report keeps their medians (NodeGpuMaps).
struct NodeGpuMatrix {
  std::string host;
  PairMatrix matrix;
};

struct NodeGpuMeasurement {
  std::vector<NodeGpuMatrix> nodes;    // one per node of 2 or more ranks
  std::vector<Finding> confirmed;      // slow GPUs and pairs, re-measured (confirmed_slow_links)
  std::optional<std::string> failure;  // why the maps ended early
  std::optional<Ceiling> ceiling;      // the path inside a node (NVLink or PCIe)
};

// What a backend's doctor measured, as rank 0 holds it: the one input of the measured findings.
struct DoctorMeasurement {
  BackendKind backend = BackendKind::Mpi;
  std::optional<PairMatrix> map;                // the main map: the nodes, or the ranks of one node
  std::optional<std::string> map_failure;       // why the map ended early
  std::vector<Finding> confirmed;               // slow nodes and pairs, re-measured (confirmed_slow_nodes)
  std::vector<CaseResult> cases;                // the small all-reduce sweep
  std::vector<std::string> hosts;               // each rank's host, for the straggler's name
  std::optional<Ceiling> ceiling;               // the job's path
  std::optional<NodeGpuMeasurement> node_gpus;  // the GPUs inside each node
  bool oversubscribed = false;                  // a node runs more ranks than it has cores
};

// Failed sweep cases, the all-reduce's peak against the ceiling, the map's bad pairs and links below
// the ceiling, each node's GPU map, the stragglers (information on an oversubscribed node).
std::vector<Finding> measured_findings(const DoctorMeasurement& m);

// A doctor of one rank measures no link: the map and the sweep are left out, and this finding says
// so and what to type.
Finding one_rank_finding(BackendKind backend);

// Rank 0: the system checks' and the measured findings, ranked, printed and written to `json_path`
// (when given, never over a file); returns the exit code (doctor_exit_code).
int conclude_doctor(std::vector<Finding> findings, const DoctorMeasurement& m, const std::string& json_path);

}  // namespace commtune
