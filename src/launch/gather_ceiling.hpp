#pragma once
// The ceiling of the path a sweep runs on, for the whole job: facts from every rank (host name,
// network port rates, the host copy bandwidth of each node), combined on rank 0.
#include <optional>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "ceiling/path_facts.hpp"
#include "control/control_plane.hpp"

namespace commtune {

// Measured by one process per node (local rank 0); nothing on the other processes. Under a
// launcher, measure_host_copy_quietly below (so do the NCCL launches' supervisors, emulated nodes);
// this alone where one process runs.
std::optional<HostCopyBandwidth> measure_host_copy_if_first_on_node();

// The same after MPI_Init, while every rank of `world` waits in a barrier that sleeps: measured
// before it, the copy ran beside the other ranks' MPI_Init (on the 2-core VM, once its buffers no
// longer took 0.6 s of page faults first, 10.7 to 11.9 GB/s in 4 of 6 sweeps of 4 ranks; 16.1 to
// 18.6 with the faults, 16.6 to 22.2 here: docs/measurements.md, 2026-12-07). Every rank calls it.
std::optional<HostCopyBandwidth> measure_host_copy_quietly(MPI_Comm world);

// Every rank calls it; rank 0 gets the ceiling (or nothing when no path rate is known), the
// others nothing. `facts` carries what the backend knows already (backend, GPU, NVLink, PCIe).
std::optional<Ceiling> gather_ceiling(ControlPlane& control, PathFacts facts,
                                      const std::optional<HostCopyBandwidth>& copy);

// The NCCL backend's path facts from its provenance (the probe's GPU name, nvidia-smi topo -m,
// the GPU's PCIe link in sysfs).
PathFacts nccl_path_facts(const nlohmann::json& nccl_provenance, bool emulated_nodes);

}  // namespace commtune
