#include "results/results_input.hpp"

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "results/nccl_tests_json.hpp"

namespace commtune {

ResultsDocument load_any_results(const std::string& path) {
  const nlohmann::json document = read_json_file(path, "results file");
  if (is_nccl_tests_json(document)) return nccl_tests_from_json(document, path);
  if (document.is_object() && !document.contains("schema_version") && document.contains("version"))
    throw InputError(path + ": not a commtune results file nor nccl-tests JSON (a version but no results)");
  return results_from_json(document, path);
}

bool from_nccl_tests(const ResultsDocument& doc) {
  return doc.provenance.is_object() && doc.provenance.value("tool", "") == "nccl-tests";
}

}  // namespace commtune
