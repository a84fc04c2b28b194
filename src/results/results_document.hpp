#pragma once
// A whole results file in memory: provenance, the sweep's options, its settings and its cases.
// The reader side of report/json_results_writer.hpp, used by tune, export and compare.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/setting.hpp"
#include "results/case_result.hpp"

namespace commtune {

struct ResultsDocument {
  int schema_version = 0;
  std::string backend;
  nlohmann::json provenance;  // free-form facts about the run (docs/results-schema.md)
  nlohmann::json sweep;       // the sweep options as run
  std::vector<Setting> settings;
  std::vector<CaseResult> cases;
  bool complete = false;  // false: the sweep was interrupted; cases hold what finished
};

// Throws InputError with the file name and the field when the file is not a commtune results file.
ResultsDocument load_results(const std::string& path);
ResultsDocument results_from_json(const nlohmann::json& document, const std::string& origin);

}  // namespace commtune
