#include "cli/commands.hpp"

#include <iostream>

#include "launch/backend_choice.hpp"
#include "host/host_facts.hpp"
#include "host/tuner_plugin_location.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {

void add_info_command(CLI::App& app) {
  app.add_subcommand("info", "Show the backends this build has, GPUs visible and host facts");
}

int run_info_command(const Wiring& wiring) {
  std::cout << "commtune " << COMMTUNE_VERSION << "\n";
  std::cout << "backends: mpi" << (nccl_backend_built() ? ", nccl" : "") << "\n";
  std::cout << "nccl runtime: " << nccl_runtime_version() << "\n";
  const GpuCount gpus = visible_gpus();
  std::cout << "visible GPUs: " << gpus.count << (gpus.problem.empty() ? "" : " (" + gpus.problem + ")")
            << "\n";
  std::cout << "host: " << host_name() << " " << host_topology().dump() << "\n";
  const TunerPluginLocation plugin = find_tuner_plugin();
  std::cout << "nccl tuner plugin: " << (plugin.path.empty() ? "not found" : plugin.path);
  if (!plugin.path.empty()) {
    std::cout << " (tuner ABI";
    for (const auto& v : plugin.abi_versions) std::cout << " " << v;
    if (plugin.abi_versions.empty()) std::cout << " none";
    std::cout << ")";
  }
  if (!plugin.problem.empty()) std::cout << ": " << plugin.problem;
  std::cout << "\n";
  std::cout << "auto backend: " << choose_backend(std::nullopt, wiring).reason << "\n";
  return 0;
}

}  // namespace commtune
