#include "backend/nccl/supervisor/device_setup.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "control/typed_messages.hpp"
#include "knobs/nccl_knobs.hpp"
#include "core/errors.hpp"
#include "host/host_facts.hpp"
#include "backend/nccl/supervisor/worker_group.hpp"

extern char** environ;

namespace commtune {
namespace {

// The probe opens no context, so it knows each device's total memory, not its free memory (the
// worker reads that once it owns its GPU; a case that does not fit then fails on its own).
std::uint64_t least_device_bytes(const nlohmann::json& probe, const std::vector<int>& devices) {
  std::uint64_t least = 0;
  for (int d : devices) {
    const std::uint64_t free =
        probe.at("devices").at(static_cast<std::size_t>(d)).at("total_bytes").get<std::uint64_t>();
    least = least == 0 ? free : std::min(least, free);
  }
  return least;
}

std::string bus_id_of(const nlohmann::json& probe, int device) {
  return probe.at("devices")
      .at(static_cast<std::size_t>(device))
      .value("pci_bus_id", "device " + std::to_string(device));
}

std::vector<WorkerPlace> places_of(const nlohmann::json& supervisors) {
  std::vector<WorkerPlace> places;
  for (const auto& supervisor : supervisors)
    for (const auto& worker : supervisor.at("workers"))
      places.push_back({worker.at("rank").get<int>(), supervisor.at("host").get<std::string>(),
                        worker.at("pci_bus_id").get<std::string>()});
  return places;
}

nlohmann::json supervisor_facts(const SupervisorLayout& layout, const nlohmann::json& probe) {
  nlohmann::json workers = nlohmann::json::array();
  for (std::size_t i = 0; i < layout.ranks.size(); ++i)
    workers.push_back(
        {{"rank", layout.ranks[i]},
         {"device", layout.devices[i]},
         {"pci_bus_id", bus_id_of(probe, layout.devices[i])},
         {"multicast",
          probe.at("devices").at(static_cast<std::size_t>(layout.devices[i])).value("multicast", true)}});
  return {{"host", host_name()},
          {"device_memory_bytes", least_device_bytes(probe, layout.devices)},
          {"workers", workers},
          {"devices", probe},
          {"gpu_topology", gpu_topology_matrix()},
          {"infiniband", infiniband_devices()}};
}

}  // namespace

void validate_nccl_settings(const SweepConfig& config, const KnobChecks& extra) {
  for (const auto& setting : config.settings) {
    try {
      validate_nccl_setting(setting, config.options.collectives, extra);
    } catch (const InputError& e) {
      throw InputError("setting '" + setting.name + "': " + e.what());
    }
  }
}

WorkerCommand this_worker_command() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw BackendError("cannot find this executable to start workers: " + error.message());
  WorkerCommand command{self.string(), {}};
  for (char** entry = environ; *entry != nullptr; ++entry) command.base_environment.emplace_back(*entry);
  return command;
}

nlohmann::json probe_devices(const WorkerCommand& command, const NcclRunOptions& run) {
  std::vector<WorkerReply> replies;
  StepOutcome outcome;
  try {
    WorkerGroup probe({WorkerSpawn{command.executable, worker_arguments(0, 1, 0), command.base_environment}},
                      {0});
    outcome =
        probe.exchange({request_line("probe")}, to_milliseconds(run.init_timeout_s), "device probe", replies);
    if (outcome.ok()) probe.finish(std::chrono::seconds(5));
  } catch (const Error& e) {
    outcome = StepOutcome{StepStatus::Failed, e.what(), true};
  }
  if (!outcome.ok())
    throw UnavailableError("--backend nccl: cannot use the GPUs of " + host_name() + ": " + outcome.reason);
  return replies[0].body.at("facts");
}

int device_count(const nlohmann::json& probe) { return static_cast<int>(probe.at("devices").size()); }

std::vector<int> devices_for(int first_local_rank, int local_ranks, int gpus) {
  if (gpus <= 0) throw UnavailableError("--backend nccl: no GPU is visible on " + host_name());
  std::vector<int> devices;
  for (int r = first_local_rank; r < first_local_rank + local_ranks; ++r) devices.push_back(r % gpus);
  return devices;
}

PlacementFacts placement_facts(const std::vector<WorkerPlace>& workers, bool emulate_nodes) {
  PlacementFacts facts;
  std::map<std::pair<std::string, std::string>, std::vector<int>> ranks_on;
  std::set<std::string> hosts;
  for (const WorkerPlace& w : workers) {
    ranks_on[{w.host, w.pci_bus_id}].push_back(w.rank);
    hosts.insert(w.host);
  }
  for (const auto& [gpu, ranks] : ranks_on) {
    facts.ranks_per_device = std::max(facts.ranks_per_device, static_cast<int>(ranks.size()));
    if (ranks.size() > 1 && !emulate_nodes && !facts.refusal)
      facts.refusal =
          "ranks " + std::to_string(ranks[0]) + " and " + std::to_string(ranks[1]) + " would share GPU " +
          gpu.second + " on " + gpu.first + " (" + std::to_string(ranks.size()) +
          " ranks on it): NCCL refuses two ranks on one GPU; use fewer ranks per host or --emulate-nodes";
  }
  std::vector<WorkerPlace> by_rank = workers;
  std::sort(by_rank.begin(), by_rank.end(),
            [](const WorkerPlace& a, const WorkerPlace& b) { return a.rank < b.rank; });
  std::vector<std::string> host_of_rank;
  for (const WorkerPlace& w : by_rank) host_of_rank.push_back(w.host);
  facts.node_of_rank = node_numbers(host_of_rank);
  facts.nnodes =
      emulate_nodes ? static_cast<int>(workers.size()) : std::max<int>(1, static_cast<int>(hosts.size()));
  return facts;
}

bool nvls_hardware(const nlohmann::json& supervisors, bool emulate_nodes) {
  if (emulate_nodes) return false;
  std::map<std::string, std::set<std::string>> gpus_of_host;
  for (const auto& supervisor : supervisors)
    for (const auto& worker : supervisor.at("workers")) {
      if (!worker.value("multicast", true)) return false;
      gpus_of_host[supervisor.at("host").get<std::string>()].insert(
          worker.at("pci_bus_id").get<std::string>());
    }
  for (const auto& [host, gpus] : gpus_of_host)
    if (gpus.size() < 2) return false;
  return !gpus_of_host.empty();
}

AgreedDeviceFacts agree_device_facts(ControlPlane& control, const SupervisorLayout& layout,
                                     const nlohmann::json& probe, const NcclRunOptions& run) {
  const std::vector<nlohmann::json> all = gather_values(control, supervisor_facts(layout, probe));
  nlohmann::json decided = nlohmann::json::object();
  if (control.rank() == 0) {
    std::uint64_t least = 0;
    nlohmann::json supervisors = nlohmann::json::array();
    for (nlohmann::json facts : all) {
      const auto free = facts.at("device_memory_bytes").get<std::uint64_t>();
      least = least == 0 ? free : std::min(least, free);
      supervisors.push_back(std::move(facts));
    }
    const PlacementFacts placement = placement_facts(places_of(supervisors), run.emulate_nodes);
    decided = {{"device_memory_bytes", least},
               {"ranks_per_device", placement.ranks_per_device},
               {"nnodes", placement.nnodes},
               {"node_of_rank", placement.node_of_rank},
               {"refusal", placement.refusal ? *placement.refusal : ""},
               {"nvls_hardware", nvls_hardware(supervisors, run.emulate_nodes)}};
    decided["provenance"] = {{"supervisors", supervisors},
                             {"emulated_nodes", run.emulate_nodes},
                             {"cuda_graph_launch", run.graph},
                             {"init_timeout_s", run.init_timeout_s},
                             {"case_timeout_s", run.case_timeout_s}};
  }
  const nlohmann::json agreed = broadcast_value(control, decided);
  if (const std::string refusal = agreed.at("refusal").get<std::string>(); !refusal.empty())
    throw InputError(refusal);
  return AgreedDeviceFacts{.device_memory_bytes = agreed.at("device_memory_bytes").get<std::uint64_t>(),
                           .ranks_per_device = agreed.at("ranks_per_device").get<int>(),
                           .nnodes = agreed.at("nnodes").get<int>(),
                           .node_of_rank = agreed.at("node_of_rank").get<std::vector<int>>(),
                           .nvls_hardware = agreed.at("nvls_hardware").get<bool>(),
                           .provenance = control.rank() == 0 ? decided.at("provenance") : nlohmann::json()};
}

}  // namespace commtune
