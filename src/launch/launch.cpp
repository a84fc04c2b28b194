#include "launch/launch.hpp"

#include <array>

#include "core/errors.hpp"
#include "host/provenance.hpp"
#include "launch/backend_launches.hpp"
#include "launch/launcher_check.hpp"

namespace commtune {
namespace {

struct LaunchEntry {
  BackendKind backend;
  int (*sweep)(const SweepLaunch&);
  int (*doctor)(const DoctorLaunch&);
};

// Adding a backend: its folder under backend/, its launches here (sweep and doctor), and one row.
constexpr std::array<LaunchEntry, kBackendCount> kLaunches{{
    {BackendKind::Mpi, run_mpi_sweep, run_mpi_doctor},
    {BackendKind::Nccl, run_nccl_sweep, run_nccl_doctor},
}};

static_assert(covers_every_backend(kLaunches, &LaunchEntry::backend),
              "one launch row per backend, in enum order");

const LaunchEntry& launch_of(BackendKind kind) { return backend_row(kLaunches, kind); }

}  // namespace

int launch_sweep(const SweepLaunch& launch) {
  refuse_unsupported_launcher(launch.launcher);
  return launch_of(launch.choice.kind).sweep(launch);
}

int launch_doctor(const DoctorLaunch& launch) {
  refuse_unsupported_launcher(launch.launcher);
  return launch_of(launch.choice.kind).doctor(launch);
}

nlohmann::json launch_provenance(const SweepLaunch& launch) {
  nlohmann::json facts = base_provenance(launch.argc, launch.argv, launch.launcher);
  facts["backend_choice"] = launch.choice.reason;
  facts["config"] = {{"name", launch.config.name}, {"description", launch.config.description}};
  if (launch.wiring.simulated()) facts["labels"].push_back(launch.wiring.simulated_label);
  return facts;
}

}  // namespace commtune
