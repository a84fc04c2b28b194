#include "inputs/report_input.hpp"

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "results/results_input.hpp"
#include "tune/recommendation_json.hpp"

namespace commtune {
namespace {

// What a results reader takes: commtune's results ("schema_version") or nccl-tests' JSON, which
// load_any_results tells apart; anything carrying another tool's "kind" or "tool" is not one.
bool may_be_results(const nlohmann::json& j) {
  return j.is_object() && !j.contains("kind") && !j.contains("tool");
}

}  // namespace

ReportInput load_report_input(const std::string& path) {
  const nlohmann::json doc = read_json_file(path, "input file");
  if (is_recommendation_json(doc)) return {path, recommendation_from_json(doc, path)};
  if (is_compare_json(doc)) return {path, compare_document_from_json(doc, path)};
  if (is_doctor_json(doc)) return {path, doctor_report_from_json(doc, path)};
  if (is_replay_json(doc)) return {path, replay_from_json(doc, path)};
  if (!may_be_results(doc))
    throw InputError(path +
                     ": not a results file, tune recommendation, compare report (--format json), doctor "
                     "report (--json) or replay results");
  ResultsDocument results = load_any_results(path);
  if (results.cases.empty()) throw InputError(path + ": no cases to draw");
  return {path, std::move(results)};
}

std::string_view kind_name(const ReportInput& input) {
  switch (input.content.index()) {
    case 0:
      return "results";
    case 1:
      return "recommendation";
    case 2:
      return "compare";
    case 3:
      return "doctor";
    default:
      return "replay";
  }
}

}  // namespace commtune
