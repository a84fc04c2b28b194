#pragma once
// Provenance of a run: what was asked (argv, relevant environment), when, with what tool, how it
// was launched (mpirun, srun and its Slurm job), and where (nodes, hosts, the rank layout, CPU and
// memory of each host).
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/control_plane.hpp"
#include "host/launcher.hpp"

namespace commtune {

// `launcher` as read at start, before MPI_Init adds variables of its own.
nlohmann::json base_provenance(int argc, char** argv, const Launcher& launcher);

// The launcher and its Slurm job, as recorded: {"name": "srun", "slurm": {"job_id": ...}}.
nlohmann::json launcher_provenance(const Launcher& launcher);

// One rank run by this process: its global rank, its rank on its node, and its device ("cpu"
// for host memory; on NCCL the GPU's index, PCI bus id and the CUDA_VISIBLE_DEVICES it saw).
struct RankPlace {
  int rank = 0;
  int local_rank = 0;
  nlohmann::json device;
  std::optional<int> launcher_local_rank;  // the launcher's own numbering on the node, where it says
};

// Gathers every process's ranks with its host, node (the control plane's locality), pid and
// host topology; returns on rank 0 (empty elsewhere): nranks, nhosts (nodes, by locality),
// local_sizes (the ranks on each node, in node order: MPI local sizes), ranks (by rank) and hosts (topology
// by host name).
nlohmann::json rank_layout(ControlPlane& control, const std::vector<RankPlace>& mine);

}  // namespace commtune
