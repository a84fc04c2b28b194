#include "sweep/sweep_session.hpp"

#include <iostream>

#include "core/errors.hpp"
#include "report/composite_sink.hpp"
#include "report/json_results_writer.hpp"
#include "report/progress_reporter.hpp"
#include "report/table_writer.hpp"
#include "sweep/interrupt.hpp"
#include "host/provenance.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_tuning.hpp"

namespace commtune {
namespace {

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

}  // namespace

void validate_settings(const Backend& backend, const SweepConfig& config) {
  for (const auto& setting : config.settings) {
    try {
      backend.validate(setting, config.options);
    } catch (const InputError& e) {
      throw InputError("setting '" + setting.name + "': " + e.what());
    }
  }
}

nlohmann::json launch_provenance(const SweepLaunch& launch) {
  nlohmann::json facts = base_provenance(launch.argc, launch.argv);
  facts["backend_choice"] = launch.choice.reason;
  facts["config"] = {{"name", launch.config.name}, {"description", launch.config.description}};
  return facts;
}

int run_prepared_sweep(const PreparedSweep& s) {
  const std::string backend = s.backend.name();
  const std::string wanted = s.launch.out_path.empty() ? default_results_path(backend) : s.launch.out_path;
  std::unique_ptr<JsonResultsWriter> results = open_results(s.control, wanted);
  const std::string written = results ? results->path() : "";
  std::vector<CaseResult> swept;
  CompositeSink sink;
  if (s.control.rank() == 0) {
    std::cerr << "commtune: " << s.banner << "\n";
    sink.add(std::make_unique<TableWriter>(std::cout));
    sink.add(std::make_unique<ProgressReporter>(std::cerr));
    sink.add(std::move(results));
    sink.add(std::make_unique<SweptCases>(swept));
  }
  sink.begin(RunHeader{s.plan, backend, s.provenance});
  InterruptWatch interrupt;
  const auto interrupted = [&] { return interrupt.requested(); };
  const RunSummary summary = run_sweep(SweepContext{s.plan, s.backend, s.control, sink, interrupted});
  sink.end(summary);
  if (s.control.rank() == 0) std::cerr << "commtune: results written to " << written << "\n";
  tune_after_sweep(SweepTuning{s.plan, s.backend, s.control, swept, backend, s.provenance, written, interrupted},
                   summary);
  return sweep_exit_code(summary);
}

}  // namespace commtune
