#include "launch/backend_launches.hpp"

#include <algorithm>
#include <iostream>
#include <memory>

#include "backend/nccl/supervisor/device_setup.hpp"
#include "backend/nccl/supervisor/nccl_pairwise.hpp"
#include "control/local_control_plane.hpp"
#include "control/typed_messages.hpp"
#include "doctor/measured_findings.hpp"
#include "host/host_facts.hpp"
#include "host/provenance.hpp"
#include "launch/doctor_parts.hpp"
#include "launch/gather_ceiling.hpp"
#include "launch/nccl_control.hpp"
#include "launch/nccl_doctor_maps.hpp"
#include "measure/bandwidth.hpp"
#include "writers/case_collector.hpp"
#include "writers/composite_sink.hpp"
#include "writers/straggler_report.hpp"
#include "writers/table_writer.hpp"
#include "sweep/interrupt.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_session.hpp"
#include "core/output_file.hpp"

namespace commtune {
namespace {

// This supervisor's workers as ranks of the sweep's layout.
std::vector<RankPlace> worker_places(const SupervisorLayout& layout, int first_local_rank) {
  std::vector<RankPlace> places;
  for (std::size_t i = 0; i < layout.ranks.size(); ++i)
    places.push_back({layout.ranks[i],
                      first_local_rank + static_cast<int>(i),
                      {{"index", layout.devices.at(i)}},
                      std::nullopt});
  return places;
}

// The doctor's small all-reduce sweep on the NCCL backend, like a sweep's default setting (fresh
// workers, the same watchdog); the table on rank 0, the cases there.
struct DoctorSweep {
  std::vector<CaseResult> cases;   // rank 0's; none elsewhere
  std::vector<std::string> hosts;  // each rank's host (the sweep's layout)
};

DoctorSweep sweep_cases(ControlPlane& control, const DoctorLaunch& launch, const WorkerCommand& command,
                        SupervisorLayout layout, const AgreedDeviceFacts& facts,
                        const std::optional<Ceiling>& ceiling) {
  layout.ranks_per_device = facts.ranks_per_device;
  layout.nnodes = facts.nnodes;
  layout.nvls_hardware = facts.nvls_hardware;
  nlohmann::json provenance{{"tool", "commtune"},
                            {std::string(name_of(BackendKind::Nccl)), facts.provenance}};
  provenance["layout"] = rank_layout(control, worker_places(layout, control.locality().local_rank));
  if (ceiling) provenance["ceiling"] = to_json(*ceiling);
  NcclBackend backend(control, layout, launch.nccl, command, facts.device_memory_bytes, provenance);
  const Plan plan = plan_sweep(doctor_sweep(launch.quick, BackendKind::Nccl), backend);
  DoctorSweep out{{}, rank_hosts(provenance["layout"])};
  CompositeSink sink;
  if (control.rank() == 0) {
    sink.add(std::make_unique<CaseCollector>(out.cases));
    sink.add(std::make_unique<TableWriter>(std::cout));
  }
  sink.begin(RunHeader{plan, BackendKind::Nccl, provenance});
  InterruptWatch interrupt(std::chrono::seconds(60));
  sink.end(run_sweep(SweepRun{plan, backend, control, [&] { return interrupt.requested(); }}, sink));
  return out;
}

// Rank 0's json_path check, agreed, so that every rank leaves together on bad input.
void refuse_bad_output(ControlPlane& control, const DoctorLaunch& launch) {
  std::optional<std::string> refused;
  try {
    if (control.rank() == 0 && !launch.json_path.empty()) check_output_path(launch.json_path, OutputPolicy{});
  } catch (const InputError& e) {
    refused = e.what();
  }
  if (const auto agreed = control.agree_on_failure(refused)) throw InputError(*agreed);
}

// Rank 0: the map's tables, under a line that says what they are.
void print_map(const NcclPairwiseMap& map, const std::string& what, std::ostream& out) {
  out << "# commtune doctor: " << what << "\n";
  if (const PairMatrix* first = map.first()) write_matrix(*first, out);
}

int doctor_on(ControlPlane& control, const DoctorLaunch& launch, const WorkerCommand& command,
              const SupervisorLayout& layout, const nlohmann::json& probe, const DoctorMaps& maps,
              const std::optional<HostCopyBandwidth>& copy) {
  refuse_bad_output(control, launch);
  std::vector<Finding> findings = system_findings(control, launch.system_root);
  if (!measures_bandwidth(layout.nranks)) {  // one GPU: nothing to map
    findings.push_back(one_rank_finding(BackendKind::Nccl));
    const int code = control.rank() == 0
                         ? conclude_doctor(std::move(findings),
                                           DoctorMeasurement{.backend = BackendKind::Nccl}, launch.json_path)
                         : 0;
    return broadcast_value(control, code);
  }
  const AgreedDeviceFacts facts = agree_device_facts(control, layout, probe, launch.nccl);
  const std::optional<Ceiling> ceiling =
      gather_ceiling(control, nccl_path_facts(facts.provenance, launch.nccl.emulate_nodes), copy);
  const NcclPairwiseMap map = measure_nccl_pairwise(control, command, launch.nccl, maps.main);
  if (control.rank() == 0)
    print_map(map,
              launch.choice.reason + ", pairwise map of " + std::to_string(maps.main.groups.front().size()) +
                  " " + maps.main.unit + "s through NCCL workers",
              std::cout);
  std::optional<NodeGpuMeasurement> node_gpus = measure_node_gpus(control, command, launch, maps, facts);
  const DoctorSweep swept = sweep_cases(control, launch, command, layout, facts, ceiling);
  const std::vector<Finding> confirmed =
      confirmed_slow_nodes(control, map.first_matrix(), [&](const std::optional<std::vector<Round>>& rounds) {
        NcclPairwisePlan again = maps.main;
        again.rounds = {rounds};
        return measure_nccl_pairwise(control, command, launch.nccl, again).first_matrix();
      });
  confirm_node_gpus(control, command, launch, maps, node_gpus);
  int code = 0;
  if (control.rank() == 0) {
    const DoctorMeasurement measured{.backend = BackendKind::Nccl,
                                     .map = map.first_matrix(),
                                     .map_failure = map.failure,
                                     .confirmed = confirmed,
                                     .cases = swept.cases,
                                     .hosts = swept.hosts,
                                     .ceiling = ceiling,
                                     .node_gpus = node_gpus};
    code = conclude_doctor(std::move(findings), measured, launch.json_path);
  }
  return broadcast_value(control, code);
}

int run_local(const DoctorLaunch& launch, const WorkerCommand& command) {
  const nlohmann::json probe = probe_devices(command, launch.nccl);
  const int gpus = device_count(probe);
  SupervisorLayout layout;
  layout.nranks = launch.nccl.ranks > 0 ? launch.nccl.ranks : gpus;
  layout.devices = devices_for(0, layout.nranks, gpus);
  for (int r = 0; r < layout.nranks; ++r) layout.ranks.push_back(r);
  LocalControlPlane control;  // one process: nothing runs beside the copy
  return doctor_on(control, launch, command, layout, probe,
                   DoctorMaps{local_plan(layout, launch.quick), std::nullopt, {}},
                   launch.nccl.emulate_nodes ? measure_host_copy_if_first_on_node() : std::nullopt);
}

int run_under_mpi(const DoctorLaunch& launch, const WorkerCommand& command) {
  return run_supervisors_under_mpi(
      launch.argc, launch.argv, launch.nccl, command,
      [&](ControlPlane& control, const SupervisorLayout& layout, const nlohmann::json& probe,
          const std::optional<HostCopyBandwidth>& copy) {
        const JobNodes nodes = job_nodes(control);
        const int device = layout.devices.front();
        DoctorMaps maps{launched_plan(control, nodes, device, launch.quick), std::nullopt, nodes.hosts};
        if (has_node_gpu_maps(nodes)) maps.node_gpus = node_gpus_plan(control, nodes, device, launch.quick);
        return doctor_on(control, launch, command, layout, probe, maps, copy);
      });
}

}  // namespace

int run_nccl_doctor(const DoctorLaunch& launch) {
  const WorkerCommand command = this_worker_command();
  if (launch.launcher.mpi) return run_under_mpi(launch, command);
  return run_local(launch, command);
}

}  // namespace commtune
