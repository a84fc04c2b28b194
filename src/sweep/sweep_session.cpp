#include "sweep/sweep_session.hpp"

#include "sweep/session_cache.hpp"

#include <algorithm>
#include <iostream>

#include "core/errors.hpp"
#include "host/host_facts.hpp"
#include "plan/budget_fit.hpp"
#include "plan/duration.hpp"
#include "measure/bandwidth.hpp"
#include "writers/layout_phrase.hpp"
#include "writers/case_collector.hpp"
#include "writers/composite_sink.hpp"
#include "writers/json_results_writer.hpp"
#include "writers/progress_reporter.hpp"
#include "writers/round_table_order.hpp"
#include "writers/run_pooling_sink.hpp"
#include "writers/straggler_report.hpp"
#include "sweep/session_cache.hpp"
#include "writers/table_writer.hpp"
#include "results/results_json.hpp"
#include "sweep/interrupt.hpp"
#include "sweep/raced_sweep.hpp"
#include "sweep/repeat_order.hpp"
#include "sweep/resume.hpp"
#include "sweep/sweep_html.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_tuning.hpp"

namespace commtune {
namespace {

std::string in_config_prefix(const SweepConfig& config) {
  return config.origin.empty() ? "" : config.origin + ": ";
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

ResultsDocument swept_document(const Plan& plan, BackendKind backend, const nlohmann::json& provenance,
                               std::vector<CaseResult> cases) {
  ResultsDocument doc;
  doc.schema_version = kResultsSchemaVersion;
  doc.backend = backend;
  doc.provenance = provenance;
  doc.settings = plan.settings;
  doc.cases = std::move(cases);
  doc.complete = true;
  return doc;
}

// The sinks that keep cases (the results file, the tuning's collector): behind a pooling sink when
// the plan runs several times, so each keeps one case per case, with every run's median.
std::unique_ptr<ResultSink> keeping_sinks(std::size_t runs, std::unique_ptr<JsonResultsWriter> results,
                                          std::vector<CaseResult>& swept) {
  auto keep = std::make_unique<CompositeSink>();
  keep->add(std::move(results));
  keep->add(std::make_unique<CaseCollector>(swept));
  if (runs < 2) return keep;
  return std::make_unique<RunPoolingSink>(runs, std::move(keep));
}

// Every run of the plan, each in its rotated order; the counts add up over the runs.
RunSummary run_every_repeat(const SweepRun& run, ResultSink& sink) {
  const std::size_t runs = run.plan.options.repeat;
  if (runs < 2) return run_sweep(run, sink);
  RunSummary total;
  for (std::size_t r = 0; r < runs && total.complete; ++r) {
    sink.run_started(r, runs);
    const Plan plan = rotated_plan(run.plan, r, runs);
    const RunSummary one = run_sweep(run.with_plan(plan), sink);
    total.measured += one.measured;
    total.wrong_data += one.wrong_data;
    total.failed += one.failed;
    total.complete = one.complete;
  }
  return total;
}

// Rank 0's writers: what shows every case as it is measured (table, progress), and what keeps the
// final cases (results file, the tuning's collector); on the other ranks both are no-op sinks.
struct SessionSinks {
  CompositeSink all;
  ResultSink none;
  ResultSink* display = &none;
  ResultSink* keep = &none;
};

void attach_rank0_sinks(SessionSinks& sinks, const Plan& plan, std::unique_ptr<JsonResultsWriter> results,
                        std::vector<CaseResult>& swept) {
  auto display = std::make_unique<CompositeSink>();
  display->add(std::make_unique<RoundTableOrder>(
      std::make_unique<TableWriter>(std::cout)));  // racing rounds setting by setting
  display->add(std::make_unique<ProgressReporter>(std::cerr));
  display->add(std::make_unique<StragglerReport>(std::cout));  // after the table
  std::unique_ptr<ResultSink> keep = keeping_sinks(plan.options.repeat, std::move(results), swept);
  sinks.display = display.get();
  sinks.keep = keep.get();
  sinks.all.add(std::move(display));
  sinks.all.add(std::move(keep));
}

// The resumed file's cases go to the keeping sinks first, counted as if measured now.
RunSummary keep_resumed(ResultSink& keep, const std::vector<CaseResult>& kept) {
  RunSummary summary;
  for (const CaseResult& r : kept) {
    if (r.status == CaseStatus::WrongData)
      ++summary.wrong_data;
    else if (!r.measured())
      ++summary.failed;
    if (r.measured()) ++summary.measured;
    keep.case_finished(r);
  }
  return summary;
}

RunSummary add_counts(RunSummary total, const RunSummary& more) {
  total.measured += more.measured;
  total.wrong_data += more.wrong_data;
  total.failed += more.failed;
  total.complete = more.complete;
  return total;
}

Resumed resumed_or_fresh(const Plan& plan, BackendKind backend, ControlPlane& control,
                         const SweepReport& report) {
  if (report.resume_path.empty()) return Resumed{plan, {}};
  return resume_sweep(report.resume_path, plan, backend, report.provenance, control);
}

// --budget: the plan it fitted and its estimate, before anything runs.
std::string budget_line(const Plan& plan, const CostModel& model) {
  const double reserve = remeasure_reserve_s(*plan.options.budget_s, plan.settings.size());
  return "commtune: plan for --budget " + format_duration(*plan.options.budget_s) + ": " +
         plan_summary(plan, plan_cost(plan, model)) +
         (reserve > 0 ? "; then the finalists' re-measure, in the time left (at least " +
                            format_duration(reserve) + ")"
                      : "") +
         "\n";
}

}  // namespace

std::string default_results_path(BackendKind backend) {
  std::string stamp = utc_timestamp();
  stamp.erase(std::remove(stamp.begin(), stamp.end(), ':'), stamp.end());
  return "results/commtune-" + std::string(name_of(backend)) + "-" + stamp + ".json";
}

int sweep_exit_code(const RunSummary& summary) {
  if (!summary.complete) return 130;
  return summary.wrong_data > 0 ? 1 : 0;
}

void validate_settings(const Backend& backend, const SweepConfig& config) {
  for (const auto& setting : config.settings) {
    try {
      backend.validate(setting, config.options);
    } catch (const InputError& e) {
      throw InputError(in_config_prefix(config) + "setting '" + setting.name + "': " + e.what());
    }
  }
}

Plan plan_sweep(const SweepConfig& config, const Backend& backend) {
  const PlanLimits limits = backend.limits();
  if (!config.options.budget_s)
    return in_config(config, [&] { return make_plan(config.options, config.settings, limits); });
  BudgetFit fit = in_config(config, [&] {
    const double budget = *config.options.budget_s;
    return fit_to_budget(config.options, config.settings, limits, backend.cost_model(), budget,
                         remeasure_reserve_s(budget, config.settings.size()));
  });
  for (const std::string& cut : fit.cuts)
    fit.plan.warnings.push_back("fitted to --budget " + format_duration(*config.options.budget_s) + ": " +
                                cut);
  return fit.plan;
}

int run_sweep_session(const Plan& plan, Backend& backend, ControlPlane& control, const SweepReport& report) {
  const BackendKind name = backend.kind();
  const std::string wanted = report.out_path.empty() ? default_results_path(name) : report.out_path;
  const Resumed resumed =
      resumed_or_fresh(plan, name, control, report);  // refused before anything is written
  std::unique_ptr<JsonResultsWriter> results = open_results(control, wanted);
  const std::string written = results ? results->path() : "";
  std::vector<CaseResult> swept;
  SessionSinks sinks;
  if (control.rank() == 0) {
    if (!measures_bandwidth(plan.nranks)) std::cerr << ("commtune: note: " + one_rank_note(name) + "\n");
    std::cerr << ("commtune: " + report.banner + "\n")
              << std::flush;  // one write: whole lines never interleave
    if (plan.options.budget_s) std::cerr << budget_line(plan, backend.cost_model()) << std::flush;
    attach_rank0_sinks(sinks, plan, std::move(results), swept);
  }
  sinks.all.begin(RunHeader{plan, name, report.provenance, plan.options.repeat});
  InterruptWatch interrupt(report.stop_grace);
  std::optional<SweepBudget> budget;
  if (plan.options.budget_s) {
    const double whole = *plan.options.budget_s;
    budget = SweepBudget{whole, whole - remeasure_reserve_s(whole, plan.settings.size()),
                         SweepBudget::Clock::now(), backend.cost_model()};
  }
  // The settings racing keeps open between its rounds stay open for the finalists' re-measure
  // (closed on every rank alike when the command ends).
  SessionCache sessions(backend.cost_model().sessions_kept);
  const SweepRun run =
      SweepRun{plan, backend, control, [&] { return interrupt.requested(); }, budget}.keeping_sessions(
          sessions);
  const SweepRun rest = run.with_plan(resumed.remaining);
  const RunSummary kept = keep_resumed(*sinks.keep, resumed.kept);
  const RunSummary summary =
      add_counts(kept, plan.options.race.enabled ? run_raced_sweep(rest, *sinks.display, *sinks.keep)
                                                 : run_every_repeat(rest.without_sessions(), sinks.all));
  sinks.all.end(summary);
  if (control.rank() == 0) std::cerr << ("commtune: results written to " + written + "\n") << std::flush;
  const std::string recommendation = tune_after_sweep(
      run, swept_document(plan, name, report.provenance, std::move(swept)), written, summary);
  if (control.rank() == 0 && report.html_report) write_sweep_html(written, recommendation, report.provenance);
  return sweep_exit_code(summary);
}

}  // namespace commtune
