#include "launch/launch.hpp"

#include <array>

#include "core/errors.hpp"
#include "host/provenance.hpp"
#include "launch/backend_launches.hpp"

namespace commtune {
namespace {

struct LaunchEntry {
  const char* backend;
  int (*run)(const SweepLaunch&);
};

// Adding a backend: its folder under backend/, its launch file here, and one row.
constexpr std::array<LaunchEntry, 2> kLaunches{{
    {"mpi", run_mpi_sweep},
    {"nccl", run_nccl_sweep},
}};

}  // namespace

int launch_sweep(const SweepLaunch& launch) {
  for (const LaunchEntry& entry : kLaunches)
    if (launch.choice.name == entry.backend) return entry.run(launch);
  throw UnavailableError("unknown backend '" + launch.choice.name + "'");
}

nlohmann::json launch_provenance(const SweepLaunch& launch) {
  nlohmann::json facts = base_provenance(launch.argc, launch.argv, launch.launcher);
  facts["backend_choice"] = launch.choice.reason;
  facts["config"] = {{"name", launch.config.name}, {"description", launch.config.description}};
  if (launch.wiring.simulated()) facts["labels"].push_back(launch.wiring.simulated_label);
  return facts;
}

}  // namespace commtune
