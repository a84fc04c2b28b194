#include "tune/compared_case.hpp"

#include "core/json_fields.hpp"
#include "core/plausible_bounds.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr double kMaxChange = 1e6;  // a change of a million fold is no measurement

Verdict verdict_at(const json& c, const std::string& where) {
  const std::string text = field_as<std::string>(c, "verdict", where);
  for (Verdict v : {Verdict::Faster, Verdict::Slower, Verdict::Same, Verdict::Ambiguous})
    if (text == name_of(v)) return v;
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

std::vector<double> runs_at(const json& c, const char* key, const std::string& where) {
  std::vector<double> out;
  if (!c.contains(key)) return out;
  const std::string path = member_path(where, key);
  const json& list = list_at(c[key], path);
  for (std::size_t i = 0; i < list.size(); ++i)
    out.push_back(number_in(list[i], path + "[" + std::to_string(i) + "]", 0, kMaxPlausibleTimeUs));
  return out;
}

std::optional<SampleStats> stats_at(const json& c, const char* key, const std::string& where) {
  if (!c.contains(key)) return std::nullopt;
  return stats_from_json(c[key], member_path(where, key));
}

}  // namespace

ComparedCase compared_case_of(const CaseComparison& c) {
  ComparedCase out{.setting = c.setting,
                   .collective = c.collective,
                   .bytes = c.bytes,
                   .placement = c.placement,
                   .verdict = c.verdict,
                   .change = c.change,
                   .baseline_runs_us = c.baseline_runs,
                   .current_runs_us = c.current_runs,
                   .widened = c.widened,
                   .note = c.note};
  if (c.measured) out.change_low = c.change_low, out.change_high = c.change_high;
  if (c.baseline.count > 0) out.baseline = c.baseline;
  if (c.current.count > 0) out.current = c.current;
  return out;
}

json to_json(const ComparedCase& c) {
  json item{{"setting", c.setting},
            {"collective", name_of(c.collective)},
            {"bytes", c.bytes},
            {"placement", name_of(c.placement)},
            {"verdict", name_of(c.verdict)},
            {"change", c.change},
            {"baseline_runs_us", c.baseline_runs_us},
            {"current_runs_us", c.current_runs_us},
            {"widened", c.widened},
            {"note", c.note}};
  if (c.change_low && c.change_high) item["change_interval"] = {*c.change_low, *c.change_high};
  if (c.baseline) item["baseline"] = to_json(*c.baseline);
  if (c.current) item["current"] = to_json(*c.current);
  return item;
}

ComparedCase compared_case_from_json(const json& c, const std::string& where) {
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
  out.baseline_runs_us = runs_at(c, "baseline_runs_us", where);
  out.current_runs_us = runs_at(c, "current_runs_us", where);
  if (c.contains("widened")) out.widened = field_as<bool>(c, "widened", where);
  out.baseline = stats_at(c, "baseline", where);
  out.current = stats_at(c, "current", where);
  if (c.contains("note")) out.note = field_as<std::string>(c, "note", where);
  return out;
}

}  // namespace commtune
