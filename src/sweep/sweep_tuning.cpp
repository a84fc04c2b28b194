#include "sweep/sweep_tuning.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "report/json_results_writer.hpp"
#include "report/tune_summary_writer.hpp"
#include "results/results_json.hpp"
#include "sweep/confirm_round.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {
namespace {

ResultsDocument swept_document(const SweepTuning& t) {
  ResultsDocument doc;
  doc.schema_version = kResultsSchemaVersion;
  doc.backend = t.backend_name;
  doc.provenance = t.provenance;
  doc.settings = t.plan.settings;
  doc.cases = t.swept;
  doc.complete = true;
  return doc;
}

std::string recommendation_path(const std::string& results_path) {
  const std::filesystem::path p(results_path);
  return unused_path((p.parent_path() / (p.stem().string() + ".tune.json")).string());
}

void publish(const SweepTuning& t, const Recommendation& rec, const std::optional<ResultsDocument>& confirmation) {
  std::cout << "#\n";
  write_tune_summary(rec, std::cout);
  nlohmann::json doc = to_json(rec);
  doc["confirmation_cases"] = nlohmann::json::array();
  if (confirmation)
    for (const auto& c : confirmation->cases) doc["confirmation_cases"].push_back(to_json(c));
  const std::string path = recommendation_path(t.results_path);
  std::ofstream out(path);
  out << doc.dump(2) << "\n";
  std::cerr << "commtune: recommendation written to " << path << (out ? "" : " (FAILED)") << "\n";
}

}  // namespace

void tune_after_sweep(const SweepTuning& t, const RunSummary& summary) {
  if (!summary.complete || t.plan.settings.size() < 2) return;
  const TuneOptions options;
  const bool root = t.control.rank() == 0;
  const ResultsDocument sweep = root ? swept_document(t) : ResultsDocument{};
  const std::vector<Finalists> finalists = root ? pick_finalists(sweep, options) : std::vector<Finalists>{};
  if (root && !finalists.empty())
    std::cerr << "commtune: re-measuring " << finalists.size() << " finalist size(s) with the default, "
              << options.confirm_rounds << " interleaved rounds\n";
  const std::optional<ResultsDocument> confirmation =
      run_confirm_round(ConfirmContext{t.plan, t.backend, t.control, t.interrupted}, finalists, options.confirm_rounds);
  if (!root) return;
  const ResultsDocument empty_confirmation{kResultsSchemaVersion, t.backend_name, {}, {}, t.plan.settings, {}, true};
  // Without finalists nothing can win, so an empty confirmation keeps that verdict explicit.
  publish(t, tune(sweep, options, confirmation ? &*confirmation : &empty_confirmation), confirmation);
}

}  // namespace commtune
