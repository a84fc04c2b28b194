#pragma once
// A whole results file in memory: provenance, the sweep's options, its settings and its cases.
// The reader side of writers/json_results_writer.hpp, used by tune, export and compare.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend_kind.hpp"
#include "measure/decision.hpp"
#include "plan/setting.hpp"
#include "results/case_result.hpp"

namespace commtune {

struct ResultsDocument {
  int schema_version = 0;
  BackendKind backend = BackendKind::Mpi;
  nlohmann::json provenance;             // free-form facts about the run (docs/results-schema.md)
  nlohmann::json sweep;                  // the sweep options as run
  std::optional<DecisionRule> decision;  // sweep.margin: what racing and its tuning decided with
  std::vector<Setting> settings;
  std::vector<CaseResult> cases;
  bool complete = false;  // false: the sweep was interrupted; cases hold what finished
};

// Validates against docs/results-schema.md and throws InputError naming the file and the JSON path
// of the first problem ("r.json: cases[3].time_us.median: must be > 0, got -5"): wrong types,
// impossible values (non-positive or implausible times, quantiles or confidence intervals out of
// order, byte counts that are not whole elements, a root outside the ranks), cases naming a
// setting the file does not list, disagreeing on the rank count, or repeated. Unknown fields are
// left alone, so that newer optional fields (a case's nccl_tests_us) read fine.
ResultsDocument load_results(const std::string& path);
ResultsDocument results_from_json(const nlohmann::json& document, const std::string& origin);

// What tune, export and compare need besides a valid file: at least one case, and a sweep that ran
// to the end ("complete": true) unless `allow_incomplete` (--allow-incomplete).
void require_usable_results(const ResultsDocument& doc, const std::string& origin, bool allow_incomplete);

// The note an output carries when it comes from an interrupted sweep.
std::string incomplete_note(const ResultsDocument& doc);

}  // namespace commtune
