#include "launch/nccl_control.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "backend/mpi/mpi_environment.hpp"
#include "backend/nccl/supervisor/device_setup.hpp"
#include "control/deadline_control_plane.hpp"
#include "control/mpi_control_plane.hpp"
#include "core/errors.hpp"
#include "launch/gather_ceiling.hpp"

namespace commtune {

std::chrono::milliseconds control_deadline(const NcclRunOptions& run) {
  const double longest_step = std::max({run.init_timeout_s, run.case_timeout_s, 10.0});
  return std::chrono::milliseconds(static_cast<long long>((2 * longest_step + 10) * 1000));
}

[[noreturn]] void end_job(const std::string& message) {
  std::cerr << "commtune: error: " << message << std::endl;
  std::_Exit(75);  // mpirun / srun then stop every other rank
}

int run_supervisors_under_mpi(int argc, char** argv, const NcclRunOptions& run, const WorkerCommand& command,
                              const SupervisorBody& body) {
  if (run.ranks > 0) throw InputError("--ranks is for launcher-free runs; under mpirun/srun use -np");
  MpiEnvironment environment(argc, argv);
  return report_input_errors(environment, [&] {
    MpiControlPlane mpi;
    const int local_rank = mpi.locality().local_rank;  // GPU = local rank on each node
    DeadlineControlPlane control(mpi, control_deadline(run), end_job);
    std::optional<std::string> failure;
    nlohmann::json probe;
    SupervisorLayout layout{mpi.size(), {mpi.rank()}, {}, 1};
    try {
      probe = probe_devices(command, run);
      layout.devices = devices_for(local_rank, 1, device_count(probe));
    } catch (const Error& e) {
      failure = e.what();
    }
    if (const auto agreed = control.agree_on_failure(failure)) throw UnavailableError(*agreed);
    const auto copy = run.emulate_nodes ? measure_host_copy_quietly(mpi.comm()) : std::nullopt;
    return body(control, layout, probe, copy);
  });
}

}  // namespace commtune
