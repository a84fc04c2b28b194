#pragma once
// What every NCCL launch under mpirun/srun shares (the sweep's and the doctor's): how long a
// supervisor waits for its peers on the control plane, how a job ends when one is lost, and the
// start of one supervisor per rank.
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "ceiling/path_facts.hpp"
#include "control/control_plane.hpp"

namespace commtune {

// Longer than any step a live peer can take (its own watchdog bounds its workers).
std::chrono::milliseconds control_deadline(const NcclRunOptions& run);

// A peer supervisor missed the deadline: says so and exits 75, so that mpirun / srun stop the rest.
[[noreturn]] void end_job(const std::string& message);

// What a launch does once its supervisors are up: the control plane (with the deadline), this
// supervisor's layout (its rank, the GPU of its local rank), its device probe, and, where
// `run.emulate_nodes` asks for the host copy ceiling, that copy as the first supervisor of its node
// measured it (launch/gather_ceiling's measure_host_copy_quietly: every supervisor past MPI_Init
// and asleep in a barrier, not polling beside it), else nothing.
using SupervisorBody =
    std::function<int(ControlPlane& control, const SupervisorLayout& layout, const nlohmann::json& probe,
                      const std::optional<HostCopyBandwidth>& copy)>;

// One supervisor per rank under mpirun/srun: refuses --ranks (InputError), starts MPI, probes
// this rank's devices and agrees on the outcome (a rank that cannot probe ends the run on every
// rank with its reason: UnavailableError), measures the copy ceiling where asked, then runs `body`. Bad input
// inside it is one line on rank 0 and exit 2 (report_input_errors).
int run_supervisors_under_mpi(int argc, char** argv, const NcclRunOptions& run, const WorkerCommand& command,
                              const SupervisorBody& body);

}  // namespace commtune
