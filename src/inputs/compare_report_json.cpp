#include "inputs/compare_report_json.hpp"

#include <array>
#include <cmath>

#include "core/json_fields.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::array<const char*, 4> kVerdicts = {"FASTER", "SLOWER", "SAME", "AMBIGUOUS"};
constexpr double kMaxChange = 1e6;  // a change of a million fold is no measurement

std::string verdict_at(const json& c, const std::string& where) {
  const std::string v = field_as<std::string>(c, "verdict", where);
  for (const char* known : kVerdicts)
    if (v == known) return v;
  bad_value(member_path(where, "verdict"), "FASTER, SLOWER, SAME or AMBIGUOUS", c["verdict"]);
}

void read_interval(const json& c, const std::string& where, ComparedCase& out) {
  const auto it = c.find("change_interval");
  if (it == c.end()) return;
  const std::string path = member_path(where, "change_interval");
  if (!it->is_array() || it->size() != 2) bad_value(path, "a list [low, high]", *it);
  out.change_low = number_in((*it)[0], path + "[0]", -1, kMaxChange);
  out.change_high = number_in((*it)[1], path + "[1]", *out.change_low, kMaxChange);
}

ComparedCase case_from_json(const json& c, const std::string& where) {
  ComparedCase out;
  out.setting = field_as<std::string>(c, "setting", where);
  out.collective = parsed_at(member_path(where, "collective"),
                             [&] { return parse_collective(field_as<std::string>(c, "collective", where)); });
  out.bytes = static_cast<std::uint64_t>(
      integer_in(required_field(c, "bytes", where), member_path(where, "bytes"), 1, 1ll << 40));
  out.placement = parsed_at(member_path(where, "placement"),
                            [&] { return parse_placement(field_as<std::string>(c, "placement", where)); });
  out.verdict = verdict_at(c, where);
  out.change = number_in(required_field(c, "change", where), member_path(where, "change"), -1, kMaxChange);
  read_interval(c, where, out);
  if (c.contains("note")) out.note = field_as<std::string>(c, "note", where);
  return out;
}

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
    doc.cases.push_back(case_from_json(cases[i], origin + ": cases[" + std::to_string(i) + "]"));
  if (j.contains("notes")) {
    const json& notes = list_at(j["notes"], origin + ": notes");
    for (std::size_t i = 0; i < notes.size(); ++i)
      doc.notes.push_back(value_as<std::string>(notes[i], origin + ": notes[" + std::to_string(i) + "]"));
  }
  return doc;
}

}  // namespace commtune
