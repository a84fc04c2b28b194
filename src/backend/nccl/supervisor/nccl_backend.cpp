#include "backend/nccl/supervisor/nccl_backend.hpp"

#include <algorithm>

#include <unistd.h>

#include <iostream>
#include <map>

#include "knobs/nccl_knobs.hpp"
#include "backend/nccl/supervisor/layout_skips.hpp"
#include "backend/nccl/supervisor/choice_capture.hpp"
#include "backend/nccl/supervisor/nccl_setting_session.hpp"
#include "backend/nccl/supervisor/step_agreement.hpp"
#include "core/errors.hpp"
#include "host/environment_tuner_plugin.hpp"

namespace commtune {
namespace {

std::map<std::string, std::string> as_map(const std::vector<std::string>& environment) {
  std::map<std::string, std::string> variables;
  for (const auto& entry : environment) {
    const std::size_t equals = entry.find('=');
    if (equals != std::string::npos)
      variables.emplace(entry.substr(0, equals), entry.substr(equals + 1));  // first wins, as getenv
  }
  return variables;
}

nlohmann::json first_non_null(const std::vector<nlohmann::json>& parts) {
  for (const auto& part : parts)
    if (!part.is_null() && part.contains("unique_id")) return part;
  throw BackendError("rank 0's worker returned no unique id");
}

}  // namespace

std::chrono::milliseconds to_milliseconds(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

std::vector<std::string> config_overrides(const std::vector<std::string>& base, const Setting& setting) {
  const CommConfig config = comm_config_of(setting);
  std::vector<std::string> overriding;
  for (const auto& [name, value] : as_map(base)) {
    const bool cta =
        (name == "NCCL_MIN_CTAS" || name == "NCCL_MAX_CTAS") && (config.min_ctas || config.max_ctas);
    const bool net = name == "NCCL_NET" && !config.net_name.empty() && value != config.net_name;
    if (cta || net || name == "NCCL_COMM_BLOCKING") overriding.push_back(name + "=" + value);
  }
  return overriding;
}

std::vector<std::string> worker_environment(const std::vector<std::string>& base, const Setting& setting,
                                            int rank, bool emulate_nodes,
                                            const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> variables = as_map(base);
  for (const std::string& overriding : config_overrides(base, setting))
    variables.erase(overriding.substr(0, overriding.find('=')));
  for (const auto& [name, value] : setting.knobs)
    if (!is_config_knob(name)) variables[name] = value;
  if (emulate_nodes) {
    // One NCCL "node" per worker: a distinct host hash, so NCCL takes the network transport.
    variables["NCCL_HOSTID"] = "commtune-emulated-node-" + std::to_string(rank);
    variables.emplace("NCCL_NET", "Socket");
    variables.emplace("NCCL_MNNVL_ENABLE", "0");
  }
  for (const auto& [name, value] : extra) variables[name] = value;
  std::vector<std::string> environment;
  for (const auto& [name, value] : variables) environment.push_back(name + "=" + value);
  return environment;
}

std::vector<std::string> worker_arguments(int rank, int nranks, int device) {
  return {"worker",
          "--rank",
          std::to_string(rank),
          "--nranks",
          std::to_string(nranks),
          "--device",
          std::to_string(device),
          "--parent",
          std::to_string(static_cast<long>(getpid()))};
}

CommConfig comm_config_of(const Setting& setting) {
  CommConfig config;
  if (const auto it = setting.knobs.find("NCCL_MIN_CTAS"); it != setting.knobs.end())
    config.min_ctas = std::stoi(it->second);
  if (const auto it = setting.knobs.find("NCCL_MAX_CTAS"); it != setting.knobs.end())
    config.max_ctas = std::stoi(it->second);
  // NCCL 2.28.9 rejects a config whose other bound is left undefined (INT_MIN: min > max fails
  // init, src/init.cc), so a lone bound gets NCCL's own limit as its partner.
  if (config.min_ctas && !config.max_ctas) config.max_ctas = kNcclMaxChannels;
  if (config.max_ctas && !config.min_ctas) config.min_ctas = 1;
  if (const auto it = setting.knobs.find("NCCL_NET"); it != setting.knobs.end()) config.net_name = it->second;
  return config;
}

NcclBackend::NcclBackend(ControlPlane& control, SupervisorLayout layout, NcclRunOptions run,
                         WorkerCommand command, std::uint64_t device_memory_bytes, nlohmann::json provenance)
    : control_(control),
      layout_(std::move(layout)),
      run_(run),
      command_(std::move(command)),
      device_memory_bytes_(device_memory_bytes),
      provenance_(std::move(provenance)) {}

// A setting starts a worker per rank and initialises a communicator: a few seconds on one node,
// more on many; a case sends its requests over the workers' sockets and checks its data on the
// GPU. The iteration: a kernel launch and NVLink/PCIe-class bandwidth (a conservative 20 GB/s).
// Racing keeps settings open across its rounds. Each case releases its buffers, so an idle one
// holds its communicator only: NCCL's buffers per channel and peer, with NVLS more; 2 GiB per rank
// on a GPU is on the generous side. At most 16; 2 where the device memory is not known (the probe
// reads total memory: free memory needs a context, which only a worker makes on its own GPU).
CostModel NcclBackend::cost_model() const {
  constexpr std::uint64_t kIdleSettingBytes = 2ull << 30;
  const std::uint64_t per_setting =
      kIdleSettingBytes * static_cast<std::uint64_t>(std::max(1, layout_.ranks_per_device));
  const std::size_t kept =
      device_memory_bytes_ == 0 ? 2 : std::clamp<std::size_t>(device_memory_bytes_ / per_setting, 1, 16);
  return CostModel{.setting_start_s = nccl_setting_start_s(layout_.nranks),
                   .case_overhead_s = kNcclCaseOverheadS,
                   .latency_s = 2e-5,
                   .bytes_per_s = 20e9,
                   .rooted_factor = 1,
                   .sessions_kept = kept};
}

PlanLimits NcclBackend::limits() const {
  return PlanLimits{.nranks = layout_.nranks,
                    .ranks_per_host = layout_.ranks_per_device,
                    .memory_bytes_per_host = device_memory_bytes_,
                    .node_of_rank = layout_.node_of_rank};
}

void NcclBackend::validate(const Setting& setting, const SweepOptions& options) const {
  validate_nccl_setting(setting, options.collectives, run_.extra_knobs);
}

std::unique_ptr<SettingSession> NcclBackend::open(const Setting& setting, const SweepOptions& options) {
  LayoutSkips skips = layout_skips(setting, options, nccl_layout(setting));
  if (skips_everything(skips, setting, options)) return skipping(nullptr, std::move(skips), layout_.nranks);
  return skipping(open_workers(setting, options), std::move(skips), layout_.nranks);
}

// What decides which algorithms NCCL can use for this setting's workers: the job's shape and GPUs,
// and their environment (the base one with the setting's knobs over it).
NcclLayout NcclBackend::nccl_layout(const Setting& setting) const {
  std::vector<std::string> environment;
  for (const auto& [name, value] : setting.knobs)
    environment.push_back(name + "=" + value);  // first wins, as getenv
  environment.insert(environment.end(), command_.base_environment.begin(), command_.base_environment.end());
  const std::map<std::string, std::string> variables = as_map(environment);
  const auto nvls = variables.find("NCCL_NVLS_ENABLE");
  const auto collnet = variables.find("NCCL_COLLNET_ENABLE");
  const bool wants_collnet = collnet != variables.end() && collnet->second == "1";
  return NcclLayout{
      .nranks = layout_.nranks,
      .nnodes = layout_.nnodes,
      .nvls_hardware = layout_.nvls_hardware,
      .nvls_enabled = nvls == variables.end() || nvls->second != "0",
      .collnet_plugin = !wants_collnet || environment_collnet_plugin(environment, dynamic_loader_probe())};
}

// The layouts of the sweep's group specs other than world, over the ranks' hosts.
std::vector<GroupLayout> NcclBackend::group_layouts(const SweepOptions& options) const {
  std::vector<GroupLayout> layouts;
  for (const GroupSpec& spec : options.groups)
    if (!spec.is_world()) layouts.push_back(layout_groups(spec, node_of_each_rank(limits())));
  return layouts;
}

// Every worker splits one communicator per layout from its world one; the step is agreed as init's.
StepOutcome NcclBackend::split_groups(WorkerGroup& workers, const std::vector<GroupLayout>& layouts) {
  std::vector<std::string> requests;
  const std::vector<int> nodes = node_of_each_rank(limits());
  for (std::size_t w = 0; w < workers.size(); ++w) {
    const int rank = workers.rank_of(w);
    SplitRequest request{.groups = {}, .world_nodes = layout_.nnodes};
    for (const GroupLayout& layout : layouts) {
      const RankGroup& g =
          layout.groups[static_cast<std::size_t>(layout.group_of_rank[static_cast<std::size_t>(rank)])];
      request.groups.push_back(GroupSplit{.name = layout.spec.name(),
                                          .color = g.color,
                                          .ranks = g.ranks,
                                          .nodes = static_cast<int>(g.nodes.size())});
    }
    requests.push_back(request_line("split", to_json(request)));
  }
  std::vector<WorkerReply> replies;
  const StepOutcome outcome =
      workers.exchange(requests, to_milliseconds(run_.init_timeout_s), "communicator split", replies);
  return agree_step(control_, outcome, nullptr, no_data).outcome;
}

std::unique_ptr<SettingSession> NcclBackend::open_workers(const Setting& setting,
                                                          const SweepOptions& options) {
  if (const std::vector<std::string> left_out = config_overrides(command_.base_environment, setting);
      !left_out.empty() && control_.rank() == 0) {
    std::string names;
    for (const std::string& entry : left_out) names += (names.empty() ? "" : " ") + entry;
    std::cerr << "# note: setting '" << setting.name << "': " << names
              << " of the environment left out of its workers (it would override the communicator's config, "
                 "which sets blocking and the setting's CTA bounds and network)\n";
  }
  std::unique_ptr<ChoiceCapture> choice =
      ChoiceCapture::for_setting(setting, run_.record, layout_.ranks.front());
  std::vector<WorkerSpawn> spawns;
  for (std::size_t i = 0; i < layout_.ranks.size(); ++i) {
    const int rank = layout_.ranks[i];
    spawns.push_back(WorkerSpawn{
        command_.executable, worker_arguments(rank, layout_.nranks, layout_.devices[i]),
        worker_environment(command_.base_environment, setting, rank, run_.emulate_nodes,
                           choice ? choice->worker_variables(rank) : std::map<std::string, std::string>{})});
  }
  std::unique_ptr<WorkerGroup> workers;
  StepOutcome outcome;
  try {
    workers = std::make_unique<WorkerGroup>(spawns, layout_.ranks);
  } catch (const Error& e) {
    outcome = StepOutcome{StepStatus::Failed,
                          "rank " + std::to_string(layout_.ranks.front()) + ": " + e.what(), true};
  }
  const auto timeout = to_milliseconds(run_.init_timeout_s);
  std::vector<WorkerReply> replies;
  if (outcome.ok() && control_.rank() == 0) {
    std::vector<std::string> requests(workers->size());
    requests[0] = request_line("unique_id");
    outcome = workers->exchange(requests, timeout, "unique id creation", replies);
  }
  const nlohmann::json id_part = outcome.ok() && control_.rank() == 0 ? replies[0].body : nlohmann::json();
  AgreedStep agreed = agree_step(control_, outcome, id_part, first_non_null);
  if (agreed.outcome.ok()) {
    const std::string init = request_line(
        "init", {{"unique_id", agreed.data.at("unique_id")}, {"config", to_json(comm_config_of(setting))}});
    outcome = workers->exchange({init}, timeout, "communicator init", replies);
    agreed = agree_step(control_, outcome, nullptr, no_data);
  }
  std::vector<GroupLayout> groups = group_layouts(options);
  if (agreed.outcome.ok() && !groups.empty()) agreed.outcome = split_groups(*workers, groups);
  if (!agreed.outcome.ok()) {
    if (workers) workers->kill_all();
    return std::make_unique<NcclSettingSession>(agreed.outcome, layout_.nranks);
  }
  // --contend F is F of each GPU: ranks sharing one (emulated nodes) hold F between them. Each holding
  // F on its own overfilled the H200 of the first GPU run (2 ranks at 0.5: every SM held, NCCL's
  // kernels never scheduled, the case hung).
  const double contend = options.contend / std::max(1, layout_.ranks_per_device);
  return std::make_unique<NcclSettingSession>(control_, std::move(workers), run_, layout_.nranks,
                                              std::move(choice), std::move(groups), contend);
}

}  // namespace commtune
