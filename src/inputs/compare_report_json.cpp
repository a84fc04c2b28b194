#include "inputs/compare_report_json.hpp"

#include <array>
#include <cmath>

#include "core/json_fields.hpp"

namespace commtune {
namespace {

using nlohmann::json;

ComparedProvenance provenance_from_json(const json& p, const std::string& where) {
  return {field_as<std::string>(p, "field", where), field_as<std::string>(p, "baseline", where),
          field_as<std::string>(p, "current", where)};
}

}  // namespace

bool is_compare_json(const json& j) {
  return j.is_object() && j.contains("kind") && j["kind"] == "commtune-compare";
}

CompareDocument compare_document_from_json(const json& j, const std::string& origin) {
  if (!is_compare_json(j))
    throw InputError(origin + ": not a commtune compare report (\"kind\": \"commtune-compare\")");
  CompareDocument doc;
  doc.threshold = number_in(required_field(j, "threshold", origin), origin + ": threshold", 0, 10);
  doc.summary = top_field_as<std::string>(j, "summary", origin);
  const json& provenance =
      list_at(required_field(j, "provenance_differences", origin), origin + ": provenance_differences");
  for (std::size_t i = 0; i < provenance.size(); ++i)
    doc.provenance.push_back(
        provenance_from_json(provenance[i], origin + ": provenance_differences[" + std::to_string(i) + "]"));
  const json& cases = list_at(required_field(j, "cases", origin), origin + ": cases");
  for (std::size_t i = 0; i < cases.size(); ++i)
    doc.cases.push_back(compared_case_from_json(cases[i], origin + ": cases[" + std::to_string(i) + "]"));
  if (j.contains("notes")) {
    const json& notes = list_at(j["notes"], origin + ": notes");
    for (std::size_t i = 0; i < notes.size(); ++i)
      doc.notes.push_back(value_as<std::string>(notes[i], origin + ": notes[" + std::to_string(i) + "]"));
  }
  return doc;
}

}  // namespace commtune
