#pragma once
// Reading back compare's JSON report (`commtune compare --format json`, writers/compare_writers):
// what `commtune report` draws from it. Validated like every input (InputError naming the file
// and the JSON path): "kind": "commtune-compare", verdicts from FASTER / SLOWER / SAME /
// AMBIGUOUS, known collectives and placements, finite changes, intervals in order. Unknown fields
// are left alone.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tune/compared_case.hpp"

#include "core/types.hpp"

namespace commtune {

struct ComparedProvenance {
  std::string field, baseline, current;
};

struct CompareDocument {
  double threshold = 0;
  std::string summary;
  std::vector<ComparedProvenance> provenance;
  std::vector<ComparedCase> cases;
  std::vector<std::string> notes;
};

bool is_compare_json(const nlohmann::json& j);
CompareDocument compare_document_from_json(const nlohmann::json& j, const std::string& origin);

}  // namespace commtune
