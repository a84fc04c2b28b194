#include "results/results_document.hpp"

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "results/results_json.hpp"

namespace commtune {

using nlohmann::json;

ResultsDocument results_from_json(const json& document, const std::string& origin) {
  if (!document.is_object() || !document.contains("schema_version") || !document.contains("cases"))
    throw InputError(origin + ": not a commtune results file (no schema_version / cases)");
  ResultsDocument doc;
  doc.schema_version = document.value("schema_version", 0);
  if (doc.schema_version != kResultsSchemaVersion)
    throw InputError(origin + ": results schema version " + std::to_string(doc.schema_version) +
                     " is not supported (this commtune reads version " + std::to_string(kResultsSchemaVersion) + ")");
  doc.backend = document.value("backend", "");
  doc.provenance = document.value("provenance", json::object());
  doc.sweep = document.value("sweep", json::object());
  doc.complete = document.value("complete", false);
  for (const auto& s : document.value("settings", json::array()))
    doc.settings.push_back(setting_from_json(s, origin + ": settings"));
  const json& cases = document.at("cases");
  if (!cases.is_array()) throw InputError(origin + ": 'cases' must be a list");
  for (std::size_t i = 0; i < cases.size(); ++i)
    doc.cases.push_back(case_from_json(cases[i], origin + ": cases[" + std::to_string(i) + "]"));
  return doc;
}

ResultsDocument load_results(const std::string& path) {
  return results_from_json(read_json_file(path, "results file"), path);
}

}  // namespace commtune
