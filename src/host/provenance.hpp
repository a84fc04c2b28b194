#pragma once
// Provenance of a run: what was asked (argv, relevant environment), when, with what tool, and
// where (hosts, rank layout, CPU and memory of each host).
#include <nlohmann/json.hpp>

#include "control/control_plane.hpp"

namespace commtune {

nlohmann::json base_provenance(int argc, char** argv);

// Gathers every rank's host, pid and host topology; returns it on rank 0 (empty elsewhere).
nlohmann::json rank_layout(ControlPlane& control);

}  // namespace commtune
