#include "launch/backend_launches.hpp"

#include <cstdlib>
#include <iostream>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "core/errors.hpp"
#include "control/local_control_plane.hpp"
#include "backend/nccl/supervisor/device_setup.hpp"
#include "host/environment_tuner_plugin.hpp"
#include "host/launcher.hpp"
#include "host/tuner_plugin_location.hpp"
#include "host/provenance.hpp"
#include "launch/gather_ceiling.hpp"
#include "launch/nccl_control.hpp"
#include "writers/layout_phrase.hpp"
#include "sweep/sweep_session.hpp"

namespace commtune {
namespace {

// This supervisor's workers as ranks: worker i has local rank first_local_rank + i and the GPU
// layout.devices[i], as its CUDA_VISIBLE_DEVICES numbers it.
std::vector<RankPlace> worker_places(const SupervisorLayout& layout, const nlohmann::json& probe,
                                     int first_local_rank, const Launcher& launcher) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<RankPlace> places;
  for (std::size_t i = 0; i < layout.ranks.size(); ++i) {
    const int device = layout.devices.at(i);
    const nlohmann::json& facts = probe.at("devices").at(static_cast<std::size_t>(device));
    places.push_back({layout.ranks[i],
                      first_local_rank + static_cast<int>(i),
                      {{"index", device},
                       {"pci_bus_id", facts.value("pci_bus_id", "")},
                       {"cuda_visible_devices", visible ? nlohmann::json(visible) : nlohmann::json()}},
                      layout.ranks.size() == 1 ? launcher.local_rank : std::nullopt});
  }
  return places;
}

nlohmann::json provenance_of(const SweepLaunch& launch, const nlohmann::json& nccl,
                             const ChoiceCapturePlan& record, ControlPlane& control,
                             const std::vector<RankPlace>& places,
                             const std::optional<HostCopyBandwidth>& copy) {
  nlohmann::json facts = launch_provenance(launch);
  const std::string key = library_key(BackendKind::Nccl);
  facts[key] = nccl;
  facts[key]["nccl_choice"] = record.provenance();
  facts["layout"] = rank_layout(control, places);
  if (const auto ceiling = gather_ceiling(control, nccl_path_facts(nccl, launch.nccl.emulate_nodes), copy))
    facts["ceiling"] = to_json(*ceiling);
  if (launch.nccl.emulate_nodes)
    facts["labels"].push_back(
        "emulated-nodes: every rank is its own NCCL node (own NCCL_HOSTID) talking over the network path");
  return facts;
}

// The default setting records what NCCL chose unless the workers' environment loads a tuner of its own.
NcclRunOptions run_options(const SweepLaunch& launch, const WorkerCommand& command, int nranks) {
  NcclRunOptions run = launch.nccl;
  run.extra_knobs = launch.wiring.extra_nccl_knobs;
  run.record = plan_choice_capture(environment_tuner_plugin(command.base_environment, dynamic_loader_probe()),
                                   find_tuner_plugin(), nranks);
  return run;
}

int run_supervised(const SweepLaunch& launch, ControlPlane& control, const SupervisorLayout& partial,
                   const WorkerCommand& command, const nlohmann::json& probe, int first_local_rank,
                   const std::optional<HostCopyBandwidth>& copy) {
  const AgreedDeviceFacts facts = agree_device_facts(control, partial, probe, launch.nccl);
  SupervisorLayout layout = partial;
  layout.ranks_per_device = facts.ranks_per_device;
  layout.nnodes = facts.nnodes;
  layout.node_of_rank = facts.node_of_rank;
  layout.nvls_hardware = facts.nvls_hardware;
  const NcclRunOptions run = run_options(launch, command, layout.nranks);
  const nlohmann::json provenance =
      provenance_of(launch, facts.provenance, run.record, control,
                    worker_places(layout, probe, first_local_rank, launch.launcher), copy);
  std::unique_ptr<Backend> backend = launch.wiring.decorate_nccl_backend(
      std::make_unique<NcclBackend>(control, layout, run, command, facts.device_memory_bytes, provenance),
      control.rank());
  if (launch.check_job) launch.check_job(backend->limits());
  const Plan plan = plan_sweep(launch.config, *backend);
  const std::string banner = launch.choice.reason + ", " +
                             layout_phrase(layout.nranks, provenance.at("layout")) +
                             (launch.nccl.emulate_nodes ? ", emulated nodes (results labelled)" : "");
  const auto grace = std::chrono::duration_cast<std::chrono::seconds>(control_deadline(launch.nccl));
  SweepReport report{launch.out_path, provenance, banner, grace, launch.resume_path};
  report.html_report = launch.html_report;
  return launch.session(plan, *backend, control, report);
}

int run_local(const SweepLaunch& launch, const WorkerCommand& command, const nlohmann::json& probe) {
  const int gpus = device_count(probe);
  const int ranks = launch.nccl.ranks > 0 ? launch.nccl.ranks : gpus;
  SupervisorLayout layout;
  layout.nranks = ranks;
  layout.devices = devices_for(0, ranks, gpus);
  for (int r = 0; r < ranks; ++r) layout.ranks.push_back(r);
  LocalControlPlane control;  // one process: nothing runs beside the copy
  const auto copy = launch.nccl.emulate_nodes ? measure_host_copy_if_first_on_node() : std::nullopt;
  return run_supervised(launch, control, layout, command, probe, 0, copy);
}

int run_under_mpi(const SweepLaunch& launch, const WorkerCommand& command) {
  return run_supervisors_under_mpi(
      launch.argc, launch.argv, launch.nccl, command,
      [&](ControlPlane& control, const SupervisorLayout& layout, const nlohmann::json& probe,
          const std::optional<HostCopyBandwidth>& copy) {
        return run_supervised(launch, control, layout, command, probe, control.locality().local_rank, copy);
      });
}

}  // namespace

int run_nccl_sweep(const SweepLaunch& launch) {
  in_config(launch.config, [&] {
    validate_nccl_settings(launch.config, launch.wiring.extra_nccl_knobs);
  });  // before any launch
  const WorkerCommand command = this_worker_command();
  if (launch.launcher.mpi) return run_under_mpi(launch, command);
  return run_local(launch, command, probe_devices(command, launch.nccl));
}

}  // namespace commtune
