#include "cli/info_command.hpp"

#include <iostream>

#include "launch/backend_choice.hpp"
#include "host/host_facts.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {

void add_info_command(CLI::App& app) {
  app.add_subcommand("info", "Show the backends this build has, GPUs visible and host facts");
}

int run_info_command(const Wiring& wiring) {
  std::cout << "commtune " << COMMTUNE_VERSION << "\n";
  std::cout << "backends: mpi" << (nccl_backend_built() ? ", nccl" : "") << "\n";
  std::cout << "nccl runtime: " << nccl_runtime_version() << "\n";
  std::cout << "visible GPUs: " << visible_gpu_count() << "\n";
  std::cout << "host: " << host_name() << " " << host_topology().dump() << "\n";
  std::cout << "auto backend: " << choose_backend("auto", wiring).reason << "\n";
  return 0;
}

}  // namespace commtune
