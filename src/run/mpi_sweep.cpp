// The MPI host sweep: every MPI rank measures on host memory; rank 0 writes.
#include <iostream>

#include "backend/mpi/mpi_backend.hpp"
#include "core/errors.hpp"
#include "report/composite_sink.hpp"
#include "report/json_results_writer.hpp"
#include "report/progress_reporter.hpp"
#include "report/table_writer.hpp"
#include "run/interrupt.hpp"
#include "run/mpi_control_plane.hpp"
#include "run/provenance.hpp"
#include "run/sweep_launch.hpp"
#include "run/sweep_runner.hpp"
#include "run/sweep_tuning.hpp"

namespace commtune {
namespace {

// Every rank validates the same settings, so an InputError is thrown on all ranks alike.
void validate_settings(const Backend& backend, const SweepConfig& config) {
  for (const auto& setting : config.settings) {
    try {
      backend.validate(setting, config.options);
    } catch (const InputError& e) {
      throw InputError("setting '" + setting.name + "': " + e.what());
    }
  }
}

// Rank 0 opens the results file; every rank learns whether that worked before going on.
std::unique_ptr<JsonResultsWriter> open_results(ControlPlane& control, const std::string& path) {
  std::unique_ptr<JsonResultsWriter> writer;
  std::optional<std::string> failure;
  if (control.rank() == 0) {
    try {
      writer = std::make_unique<JsonResultsWriter>(path);
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  if (const auto agreed = control.agree_on_failure(failure)) throw InputError(*agreed);
  return writer;
}

nlohmann::json provenance_of(const SweepLaunch& launch, const Backend& backend, ControlPlane& control) {
  nlohmann::json facts = base_provenance(launch.argc, launch.argv);
  facts["backend_choice"] = launch.choice.reason;
  facts["config"] = {{"name", launch.config.name}, {"description", launch.config.description}};
  facts["mpi"] = backend.provenance();
  facts["layout"] = rank_layout(control);
  return facts;
}

}  // namespace

int run_mpi_sweep(const SweepLaunch& launch) {
  int argc = launch.argc;
  char** argv = launch.argv;
  MpiEnvironment environment(argc, argv);
  MpiControlPlane control;
  MpiBackend backend(environment, control.comm());
  validate_settings(backend, launch.config);
  const Plan plan = make_plan(launch.config.options, launch.config.settings, backend.limits());
  const std::string path = launch.out_path.empty() ? default_results_path("mpi") : launch.out_path;
  std::unique_ptr<JsonResultsWriter> results = open_results(control, path);
  const nlohmann::json provenance = provenance_of(launch, backend, control);

  const std::string written = results ? results->path() : "";
  std::vector<CaseResult> swept;
  CompositeSink sink;
  if (control.rank() == 0) {
    std::cerr << "commtune: " << launch.choice.reason << ", " << control.size() << " rank(s)\n";
    sink.add(std::make_unique<TableWriter>(std::cout));
    sink.add(std::make_unique<ProgressReporter>(std::cerr));
    sink.add(std::move(results));
    sink.add(std::make_unique<SweptCases>(swept));
  }
  sink.begin(RunHeader{plan, "mpi", provenance});
  InterruptWatch interrupt;
  const RunSummary summary = run_sweep(SweepContext{plan, backend, control, sink, [&] { return interrupt.requested(); }});
  sink.end(summary);
  if (control.rank() == 0) std::cerr << "commtune: results written to " << written << "\n";
  tune_after_sweep(SweepTuning{plan, backend, control, swept, "mpi", provenance, written,
                               [&] { return interrupt.requested(); }},
                   summary);
  return sweep_exit_code(summary);
}

}  // namespace commtune
