#include "launch/doctor_launch.hpp"

#include "launch/backend_launches.hpp"
#include "launch/doctor_parts.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <thread>

#include "backend/mpi/mpi_backend.hpp"
#include "backend/mpi/mpi_control_variables.hpp"
#include "control/mpi_control_plane.hpp"
#include "control/typed_messages.hpp"
#include "doctor/live_facts.hpp"
#include "doctor/measured_findings.hpp"
#include "host/host_facts.hpp"
#include "host/provenance.hpp"
#include "launch/gather_ceiling.hpp"
#include "measure/bandwidth.hpp"
#include "pairwise/mpi_pairwise.hpp"
#include "writers/case_collector.hpp"
#include "writers/composite_sink.hpp"
#include "core/output_file.hpp"
#include "writers/straggler_report.hpp"
#include "writers/table_writer.hpp"
#include "sweep/interrupt.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_session.hpp"

extern char** environ;

namespace commtune {
namespace {

std::optional<bool> mpi_yield_when_idle() {
  try {
    const auto variable = find_control_variable("mpi_yield_when_idle");
    if (!variable) return std::nullopt;
    return read_control_variable(*variable) != 0;
  } catch (const Error&) {
    return std::nullopt;  // a type this reader does not handle: the environment decides
  }
}

}  // namespace

std::vector<Finding> system_findings(ControlPlane& control, const std::string& root) {
  const NodeLocality here = control.locality();
  const bool first = here.local_rank == 0;
  const int local = here.local_size;
  nlohmann::json mine{{"host", host_name()}, {"findings", nlohmann::json::array()}};
  if (first) {
    try {
      SystemFacts facts = live_system_facts(environ, local);
      facts.mpi_yield_when_idle = mpi_yield_when_idle();
      mine["findings"] = to_json(run_system_checks(SystemTree(root), facts));
    } catch (const std::exception& e) {  // recorded; the other ranks wait in the gather below
      mine["findings"] = to_json(std::vector<Finding>{Finding{
          "check-failed", Severity::Warning, "system checks", e.what(), "report this as a commtune bug"}});
    }
  }
  const std::vector<nlohmann::json> all = gather_values(control, mine);
  std::vector<Finding> out;
  std::vector<nlohmann::json> nodes;
  for (const auto& j : all)
    if (!j["findings"].empty()) nodes.push_back(j);
  for (const auto& node : nodes)
    for (const auto& f : node["findings"]) {
      Finding finding = finding_from_json(f, "a node's system findings");
      if (nodes.size() > 1) finding.subject = node["host"].get<std::string>() + ": " + finding.subject;
      out.push_back(std::move(finding));
    }
  return out;
}

namespace {

// Whether any node runs more ranks than it has cores: then the scheduler, not a rank, decides who
// comes in last (an algorithm's root, on the critical path, is descheduled as often as not).
bool any_node_oversubscribed(ControlPlane& control) {
  const bool mine =
      control.locality().local_size > static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<bool> all = gather_values(control, mine);
  return std::find(all.begin(), all.end(), true) != all.end();
}

}  // namespace

SweepConfig doctor_sweep(bool quick, BackendKind backend) {
  SweepConfig config;
  config.name = "doctor";
  config.options.backend = backend;
  config.options.sizes = SizeRange{8, quick ? 64u << 10 : 1u << 20, 8.0, 0};
  config.options.collectives = {Collective::AllReduce};
  config.options.placements = {Placement::OutOfPlace};
  // Every size runs its whole time: the straggler finding needs the iterations (and several
  // stretches of time), not only a precise median.
  config.options.stopping.max_time_s = quick ? 0.1 : 0.3;
  config.options.stopping.min_time_s = config.options.stopping.max_time_s;
  config.options.stopping.each_call = true;  // the last arrivals are per call
  config.settings = {Setting{kDefaultSettingName, "nothing forced", {}, {}}};
  return config;
}

namespace {

int run_doctor(const DoctorLaunch& launch, const MpiEnvironment& environment) {
  MpiControlPlane control;
  const auto copy = measure_host_copy_quietly(control.comm());
  const bool root = control.rank() == 0;
  std::optional<std::string> refused;  // rank 0's, so that every rank leaves together
  try {
    if (root && !launch.json_path.empty()) check_output_path(launch.json_path, OutputPolicy{});
  } catch (const InputError& e) {
    refused = e.what();
  }
  if (const auto agreed = control.agree_on_failure(refused)) throw InputError(*agreed);
  std::vector<Finding> findings = system_findings(control, launch.system_root);
  if (!measures_bandwidth(control.size())) {
    findings.push_back(one_rank_finding(BackendKind::Mpi));
    return conclude_doctor(std::move(findings), DoctorMeasurement{.backend = BackendKind::Mpi},
                           launch.json_path);
  }
  PathFacts path;
  path.backend = BackendKind::Mpi;
  const std::optional<Ceiling> ceiling = gather_ceiling(control, path, copy);
  PairwiseOptions pairwise;
  if (launch.quick)
    pairwise = PairwiseOptions{.bytes = 256u << 10, .samples = 5, .exchanges = 4, .latency_exchanges = 10};
  const std::optional<PairMatrix> map =
      measure_pairwise(MPI_COMM_WORLD, control.locality().local_rank, control.locality().nnodes, pairwise);
  MpiBackend backend(environment, control.comm());
  const SweepConfig config = doctor_sweep(launch.quick, BackendKind::Mpi);
  const Plan plan = plan_sweep(config, backend);
  nlohmann::json provenance{{"tool", "commtune"}};
  provenance["layout"] =
      rank_layout(control, {RankPlace{control.rank(), control.locality().local_rank, "cpu", std::nullopt}});
  if (ceiling) provenance["ceiling"] = to_json(*ceiling);
  std::vector<CaseResult> cases;
  CompositeSink sink;
  if (root) {
    if (map) write_matrix(*map, std::cout);
    sink.add(std::make_unique<CaseCollector>(cases));
    sink.add(std::make_unique<TableWriter>(std::cout));
  }
  sink.begin(RunHeader{plan, BackendKind::Mpi, provenance});
  InterruptWatch interrupt(std::chrono::seconds(60));
  sink.end(run_sweep(SweepRun{plan, backend, control, [&] { return interrupt.requested(); }}, sink));
  const std::vector<Finding> confirmed =
      confirmed_slow_nodes(control, map, [&](const std::optional<std::vector<Round>>& rounds) {
        return measure_pairwise(MPI_COMM_WORLD, control.locality().local_rank, control.locality().nnodes,
                                pairwise, rounds);
      });
  DoctorMeasurement measured{.backend = BackendKind::Mpi,
                             .map = map,
                             .confirmed = confirmed,
                             .ceiling = ceiling,
                             .oversubscribed = any_node_oversubscribed(control)};
  int code = 0;
  if (root) {
    measured.cases = std::move(cases);
    measured.hosts = rank_hosts(provenance["layout"]);
    code = conclude_doctor(std::move(findings), measured, launch.json_path);
  }
  return broadcast_value(control, code);
}

}  // namespace

int run_mpi_doctor(const DoctorLaunch& launch) {
  int argc = launch.argc;
  char** argv = launch.argv;
  MpiEnvironment environment(argc, argv);
  return report_input_errors(environment, [&] { return run_doctor(launch, environment); });
}

}  // namespace commtune
