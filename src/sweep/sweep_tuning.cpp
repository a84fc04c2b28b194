#include "sweep/sweep_tuning.hpp"

#include <filesystem>
#include <iostream>

#include "writers/json_results_writer.hpp"
#include "exports/recommendation_file.hpp"
#include "writers/tune_summary_writer.hpp"
#include "results/results_json.hpp"
#include "writers/efficiency_summary.hpp"
#include "sweep/confirm_round.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {
namespace {

std::string recommendation_path(const std::string& results_path) {
  const std::filesystem::path p(results_path);
  return unused_path((p.parent_path() / (p.stem().string() + ".tune.json")).string());
}

std::string publish(const std::string& results_path, const ResultsDocument& swept, const Recommendation& rec,
                    const std::optional<ResultsDocument>& confirmation) {
  std::cout << "#\n";
  write_tune_summary(rec, std::cout);
  write_efficiency_summary(swept, std::cout);
  nlohmann::json doc = to_json(rec);
  doc["confirmation_cases"] = nlohmann::json::array();
  if (confirmation)
    for (const auto& c : confirmation->cases) doc["confirmation_cases"].push_back(to_json(c));
  const std::string path = recommendation_path(results_path);
  write_recommendation_file(path, doc, OutputPolicy{false, {results_path}});
  std::cerr << ("commtune: recommendation written to " + path + "\n") << std::flush;
  return path;
}

// How many of the rounds the race's side-by-side rounds stood for, and where.
std::string counted_note(const RaceRounds& race) {
  if (race.counted.empty()) return "";
  std::size_t rounds = 0;
  for (const auto& [key, n] : race.counted) rounds += n;
  return " (the race's own side-by-side rounds count as " + std::to_string(rounds) + " of them at " +
         std::to_string(race.counted.size()) + " size(s), and at least " +
         std::to_string(kFreshRemeasureRounds) + " run after the sweep at each)";
}

}  // namespace

std::string tune_after_sweep(const SweepRun& run, const ResultsDocument& swept,
                             const std::string& results_path, const RunSummary& summary) {
  if (!summary.complete || run.plan.settings.size() < 2) return "";
  TuneOptions options;
  options.decision = run.plan.options.decision;                  // the margin racing decided with
  for (const WorkloadSize& w : run.plan.options.workload_sizes)  // sweep --workload: tuned for its step
    options.objective.step.push_back(ObjectiveCall{
        .collective = w.collective, .bytes = w.bytes, .group = w.group.name(), .count = w.count});
  options.objective.step_origin = run.plan.options.workload_file;
  const bool root = run.control.rank() == 0;
  const std::vector<Finalists> finalists = root ? pick_finalists(swept, options) : std::vector<Finalists>{};
  const RaceRounds race = root ? race_rounds(swept, finalists, options.confirm_rounds) : RaceRounds{};
  if (root && !finalists.empty())
    std::cerr << ("commtune: re-measuring " + std::to_string(finalists.size()) +
                  " finalist size(s) with the default, " + std::to_string(options.confirm_rounds) +
                  " interleaved rounds" + counted_note(race) + "\n")
              << std::flush;
  const Confirmation confirmation = run_confirm_round(run, finalists, options.confirm_rounds, race);
  if (!root) return "";
  if (confirmation.out_of_budget()) {  // --budget: tuned on the sweep alone, and said so
    Recommendation rec = tune(swept, options);
    rec.notes.push_back(confirmation.budget_note);
    return publish(results_path, swept, rec, std::nullopt);
  }
  TuneOptions ran =
      options;  // pruned finalists end early under the full rule; a budget cut runs fewer rounds
  if (!confirmation.budget_note.empty()) ran.confirm_rounds = confirmation.rounds;
  const ResultsDocument empty_confirmation{.schema_version = kResultsSchemaVersion,
                                           .backend = swept.backend,
                                           .settings = run.plan.settings,
                                           .complete = true};
  // Without finalists nothing can win, so an empty confirmation keeps that verdict explicit.
  Recommendation rec = tune(swept, ran, confirmation.cases ? &*confirmation.cases : &empty_confirmation);
  if (!confirmation.budget_note.empty()) rec.notes.push_back(confirmation.budget_note);
  return publish(results_path, swept, rec, confirmation.cases);
}

}  // namespace commtune
