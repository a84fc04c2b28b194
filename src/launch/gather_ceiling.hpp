#pragma once
// The ceiling of the path a sweep runs on, for the whole job: facts from every rank (host name,
// network port rates, the copy bandwidth measured before MPI started), combined on rank 0.
#include <optional>

#include <nlohmann/json.hpp>

#include "ceiling/path_facts.hpp"
#include "control/control_plane.hpp"

namespace commtune {

// Measured by one process per node (local rank 0) before MPI_Init, while its peers wait quietly
// in MPI_Init; nothing on the other processes.
std::optional<HostCopyBandwidth> measure_host_copy_if_first_on_node();

// Every rank calls it; rank 0 gets the ceiling (or nothing when no path rate is known), the
// others nothing. `facts` carries what the backend knows already (backend, GPU, NVLink, PCIe).
std::optional<Ceiling> gather_ceiling(ControlPlane& control, PathFacts facts,
                                      const std::optional<HostCopyBandwidth>& copy);

// The NCCL backend's path facts from its provenance (the probe's GPU name, nvidia-smi topo -m,
// the GPU's PCIe link in sysfs).
PathFacts nccl_path_facts(const nlohmann::json& nccl_provenance, bool emulated_nodes);

}  // namespace commtune
