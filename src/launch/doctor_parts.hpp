#pragma once
// The parts of `commtune doctor` that both backends' doctors share: the system checks of every
// node, the re-measured slow-node finding, the small sweep, and the findings as printed.
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "control/control_plane.hpp"
#include "doctor/finding.hpp"
#include "pairwise/pair_matrix.hpp"
#include "plan/sweep_options.hpp"

namespace commtune {

// The first rank of each node checks its node; rank 0 gets every node's findings, each subject
// prefixed with its host when there are several.
std::vector<Finding> system_findings(ControlPlane& control, const std::string& root);

// A slow node is re-measured before it is named, like the tuner's finalists: a second map
// (`measure_again`, which every rank calls) must find the same node (a burst of contention during
// one map names no node; it is reported as information). Every rank takes rank 0's decision to
// measure again.
std::vector<Finding> confirmed_slow_nodes(ControlPlane& control, const std::optional<PairMatrix>& map,
                                          const std::function<std::optional<PairMatrix>()>& measure_again);

// The doctor's one small sweep: the default setting's out-of-place all-reduce from 8 B to 1 MiB
// (64 KiB with --quick), every size for its whole time.
SweepConfig doctor_sweep(bool quick, const std::string& backend);

void print_findings(const std::vector<Finding>& findings, std::ostream& out);

}  // namespace commtune
