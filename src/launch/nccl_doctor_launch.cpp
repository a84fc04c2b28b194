#include "launch/nccl_doctor_launch.hpp"

#include <algorithm>
#include <iostream>
#include <memory>

#include "backend/mpi/mpi_environment.hpp"
#include "backend/nccl/supervisor/device_setup.hpp"
#include "backend/nccl/supervisor/nccl_pairwise.hpp"
#include "control/deadline_control_plane.hpp"
#include "control/local_control_plane.hpp"
#include "control/mpi_control_plane.hpp"
#include "doctor/measured_findings.hpp"
#include "host/host_facts.hpp"
#include "host/provenance.hpp"
#include "launch/doctor_parts.hpp"
#include "launch/job_ceiling.hpp"
#include "launch/nccl_control.hpp"
#include "report/case_collector.hpp"
#include "report/composite_sink.hpp"
#include "report/straggler_report.hpp"
#include "report/table_writer.hpp"
#include "sweep/interrupt.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_session.hpp"
#include "report/output_file.hpp"

namespace commtune {
namespace {

// The map's messages: as the MPI host backend's map, shorter with --quick.
PairwiseRequest map_shape(bool quick) {
  PairwiseRequest shape;
  if (quick) shape = PairwiseRequest{-1, 256u << 10, 5, 4, 10};
  return shape;
}

// Without a launcher: every worker of this supervisor is a member (the GPUs of this node).
NcclPairwisePlan local_plan(const SupervisorLayout& layout, bool quick) {
  NcclPairwisePlan plan;
  for (const int rank : layout.ranks) plan.names.push_back("rank " + std::to_string(rank));
  plan.my_members = layout.ranks;
  plan.my_devices = layout.devices;
  plan.shape = map_shape(quick);
  return plan;
}

// Under a launcher: every rank on one node; with several nodes, the first rank of each node (its
// member index is its node), named by its host on rank 0.
NcclPairwisePlan launched_plan(ControlPlane& control, int device, bool quick) {
  const NodeLocality here = control.locality();
  const bool one_node = here.nnodes == 1;
  NcclPairwisePlan plan;
  plan.unit = one_node ? "rank" : "node";
  plan.shape = map_shape(quick);
  const auto all = control.gather_to_root(nlohmann::json{{"node", here.node}, {"local_rank", here.local_rank}, {"host", host_name()}}.dump());
  const int members = one_node ? control.size() : here.nnodes;
  plan.names.assign(static_cast<std::size_t>(members), "");
  for (int m = 0; m < members; ++m) plan.names[static_cast<std::size_t>(m)] = "rank " + std::to_string(m);
  for (const auto& text : all) {  // rank 0 only: the others' names are never shown
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!one_node && j.at("local_rank").get<int>() == 0) plan.names.at(j.at("node").get<std::size_t>()) = j.at("host").get<std::string>();
  }
  if (one_node || here.local_rank == 0) {
    plan.my_members = {one_node ? control.rank() : here.node};
    plan.my_devices = {device};
  }
  return plan;
}

// This supervisor's workers as ranks of the sweep's layout.
std::vector<RankPlace> worker_places(const SupervisorLayout& layout, int first_local_rank) {
  std::vector<RankPlace> places;
  for (std::size_t i = 0; i < layout.ranks.size(); ++i)
    places.push_back({layout.ranks[i], first_local_rank + static_cast<int>(i), {{"index", layout.devices.at(i)}}, std::nullopt});
  return places;
}

// The doctor's small all-reduce sweep on the NCCL backend, like a sweep's default setting (fresh
// workers, the same watchdog); the table on rank 0, the cases there.
struct DoctorSweep {
  std::vector<CaseResult> cases;   // rank 0's; none elsewhere
  std::vector<std::string> hosts;  // each rank's host (the sweep's layout)
};

DoctorSweep sweep_cases(ControlPlane& control, const DoctorLaunch& launch, const WorkerCommand& command,
                                    SupervisorLayout layout, const AgreedDeviceFacts& facts, const std::optional<Ceiling>& ceiling) {
  layout.ranks_per_device = facts.ranks_per_device;
  layout.nnodes = facts.nnodes;
  nlohmann::json provenance{{"tool", "commtune"}, {"nccl", facts.provenance}};
  provenance["layout"] = rank_layout(control, worker_places(layout, control.locality().local_rank));
  if (ceiling) provenance["ceiling"] = to_json(*ceiling);
  NcclBackend backend(control, layout, launch.nccl, command, facts.free_device_bytes, provenance);
  const Plan plan = plan_sweep(doctor_sweep(launch.quick, "nccl"), backend);
  DoctorSweep out{{}, rank_hosts(provenance["layout"])};
  CompositeSink sink;
  if (control.rank() == 0) {
    sink.add(std::make_unique<CaseCollector>(out.cases));
    sink.add(std::make_unique<TableWriter>(std::cout));
  }
  sink.begin(RunHeader{plan, "nccl", provenance});
  InterruptWatch interrupt(std::chrono::seconds(60));
  sink.end(run_sweep(SweepRun{plan, backend, control, [&] { return interrupt.requested(); }}, sink));
  return out;
}

// The all-reduce's peak against the ceiling; a case that did not measure is a finding of its own.
std::vector<Finding> sweep_findings(const std::vector<CaseResult>& cases, const std::optional<Ceiling>& ceiling) {
  std::vector<Finding> out;
  double peak = 0;
  for (const auto& c : cases) {
    if (c.measured()) peak = std::max(peak, c.busbw_gbps);
    else
      out.push_back(Finding{"sweep-case-failed", Severity::Warning, "allreduce " + std::to_string(c.spec.bytes) + " B",
                            std::string(name_of(c.status)) + ": " + c.reason,
                            "the doctor's sweep on the NCCL backend did not measure this size: run it alone with NCCL_DEBUG=INFO"});
  }
  if (ceiling && peak > 0) out.push_back(Finding{"efficiency", Severity::Info, "allreduce", efficiency_verdict(peak, *ceiling), "-"});
  return out;
}

Finding map_failure(const std::string& reason) {
  return Finding{"pairwise-map-failed", Severity::Warning, "pairwise map (NCCL)", reason,
                 "the named rank's GPU or NCCL stopped the map: run it again with NCCL_DEBUG=INFO, and "
                 "`commtune sweep --backend nccl` on that GPU alone"};
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

// What rank 0 has measured, for the findings and the --json.
struct Measured {
  const NcclPairwiseMap& map;
  const std::vector<CaseResult>& cases;
  const std::optional<Ceiling>& ceiling;
  std::vector<std::string> hosts;  // each rank's host, for the straggler's name
};

std::vector<Finding> measured_findings(const Measured& m, const std::vector<Finding>& confirmed) {
  std::vector<Finding> out;
  if (m.map.failure) out.push_back(map_failure(*m.map.failure));
  for (auto more : {sweep_findings(m.cases, m.ceiling), confirmed})
    out.insert(out.end(), more.begin(), more.end());
  if (m.map.matrix)
    for (auto more : {find_bad_pairs(*m.map.matrix), find_links_below_ceiling(*m.map.matrix, m.ceiling)})
      out.insert(out.end(), more.begin(), more.end());
  const std::vector<Finding> stragglers = find_stragglers(arrivals_of(m.cases), m.hosts);
  out.insert(out.end(), stragglers.begin(), stragglers.end());
  return out;
}

// Rank 0: the findings ranked and printed, the --json written; the exit code.
int conclude(const DoctorLaunch& launch, std::vector<Finding> findings, const Measured& m) {
  rank_findings(findings);
  print_findings(findings, std::cout);
  if (!launch.json_path.empty()) {
    nlohmann::json doc{{"tool", "commtune doctor"}, {"backend", "nccl"}, {"findings", to_json(findings)},
                       {"healthy", !needs_attention(findings)}};
    if (m.ceiling) doc["ceiling"] = to_json(*m.ceiling);
    if (m.map.matrix) doc["pairwise"] = to_json(*m.map.matrix);
    if (m.map.failure) doc["pairwise_failure"] = *m.map.failure;
    write_output_file(launch.json_path, doc.dump(2) + "\n", OutputPolicy{});
    std::cerr << "commtune: findings written to " << launch.json_path << "\n";
  }
  return needs_attention(findings) ? 1 : 0;
}

int doctor_on(ControlPlane& control, const DoctorLaunch& launch, const WorkerCommand& command, const SupervisorLayout& layout,
              const nlohmann::json& probe, const NcclPairwisePlan& plan) {
  refuse_bad_output(control, launch);
  std::vector<Finding> findings = system_findings(control, launch.system_root);
  const AgreedDeviceFacts facts = agree_device_facts(control, layout, probe, launch.nccl);
  const auto copy = launch.nccl.emulate_nodes ? measure_host_copy_if_first_on_node() : std::nullopt;
  const std::optional<Ceiling> ceiling = job_ceiling(control, nccl_path_facts(facts.provenance, launch.nccl.emulate_nodes), copy);
  const NcclPairwiseMap map = measure_nccl_pairwise(control, command, launch.nccl, plan);
  if (control.rank() == 0) {
    std::cout << "# commtune doctor: " << launch.choice.reason << ", pairwise map of " << plan.names.size() << " "
              << plan.unit << "s through NCCL workers\n";
    if (map.matrix) write_matrix(*map.matrix, std::cout);
  }
  const DoctorSweep swept = sweep_cases(control, launch, command, layout, facts, ceiling);
  const std::vector<Finding> confirmed =
      confirmed_slow_nodes(control, map.matrix, [&] { return measure_nccl_pairwise(control, command, launch.nccl, plan).matrix; });
  int code = 0;
  if (control.rank() == 0) {
    const Measured measured{map, swept.cases, ceiling, swept.hosts};
    const std::vector<Finding> more = measured_findings(measured, confirmed);
    findings.insert(findings.end(), more.begin(), more.end());
    code = conclude(launch, std::move(findings), measured);
  }
  return std::stoi(control.broadcast_from_root(std::to_string(code)));
}

int run_local(const DoctorLaunch& launch, const WorkerCommand& command) {
  const nlohmann::json probe = probe_devices(command, launch.nccl);
  const int gpus = device_count(probe);
  SupervisorLayout layout;
  layout.nranks = launch.nccl.ranks > 0 ? launch.nccl.ranks : gpus;
  layout.devices = devices_for(0, layout.nranks, gpus);
  for (int r = 0; r < layout.nranks; ++r) layout.ranks.push_back(r);
  LocalControlPlane control;
  return doctor_on(control, launch, command, layout, probe, local_plan(layout, launch.quick));
}

int run_under_mpi(const DoctorLaunch& launch, const WorkerCommand& command) {
  if (launch.nccl.ranks > 0) throw InputError("--ranks is for launcher-free runs; under mpirun/srun use -np");
  int argc = launch.argc;
  char** argv = launch.argv;
  MpiEnvironment environment(argc, argv);
  return report_input_errors(environment, [&] {
    MpiControlPlane mpi;
    DeadlineControlPlane control(mpi, control_deadline(launch.nccl), end_job);
    std::optional<std::string> failure;
    nlohmann::json probe;
    SupervisorLayout layout{mpi.size(), {mpi.rank()}, {}, 1};
    try {
      probe = probe_devices(command, launch.nccl);
      layout.devices = devices_for(mpi.locality().local_rank, 1, device_count(probe));
    } catch (const Error& e) {
      failure = e.what();
    }
    if (const auto agreed = control.agree_on_failure(failure)) throw UnavailableError(*agreed);
    return doctor_on(control, launch, command, layout, probe, launched_plan(control, layout.devices.front(), launch.quick));
  });
}

}  // namespace

int launch_nccl_doctor(const DoctorLaunch& launch) {
  const WorkerCommand command = this_worker_command();
  if (launch.launcher.mpi) return run_under_mpi(launch, command);
  return run_local(launch, command);
}

}  // namespace commtune
