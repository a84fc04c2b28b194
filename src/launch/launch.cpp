#include "launch/launch.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "host/host_facts.hpp"

namespace commtune {

std::string default_results_path(const std::string& backend) {
  std::string stamp = utc_timestamp();
  stamp.erase(std::remove(stamp.begin(), stamp.end(), ':'), stamp.end());
  return "results/commtune-" + backend + "-" + stamp + ".json";
}

int sweep_exit_code(const RunSummary& summary) {
  if (!summary.complete) return 130;
  return summary.wrong_data > 0 ? 1 : 0;
}

int launch_sweep(const SweepLaunch& launch) {
  switch (launch.choice.kind) {
    case BackendKind::Mpi: return run_mpi_sweep(launch);
    case BackendKind::Nccl: return run_nccl_sweep(launch);
  }
  throw UnavailableError("unknown backend");
}

}  // namespace commtune
