#include "workload/workload.hpp"

#include <set>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/json_file.hpp"
#include "core/message_text.hpp"
#include "workload/workload_checks.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxTextLength = 4096;     // a label, a note, a file name
constexpr std::size_t kMaxListLength = 1 << 20;  // collectives, files, notes
constexpr std::int64_t kMaxSkippedLines = 1ll << 50;

std::string text_at(const json& value, const std::string& path) {
  std::string text = value_as<std::string>(value, path);
  if (text.size() > kMaxTextLength)
    throw InputError(path + ": longer than " + std::to_string(kMaxTextLength) + " characters");
  return text;
}

std::string item_path(const std::string& list, std::size_t i) { return list + "[" + std::to_string(i) + "]"; }

const json& bounded_list(const json& value, const std::string& path) {
  list_at(value, path);
  if (value.size() > kMaxListLength)
    throw InputError(path + ": more than " + std::to_string(kMaxListLength) + " entries");
  return value;
}

std::vector<std::string> texts_at(const json& value, const std::string& path) {
  std::vector<std::string> out;
  const json& list = bounded_list(value, path);
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(text_at(list[i], item_path(path, i)));
  return out;
}

json to_json(const WorkloadCollective& c) {
  json j{{"collective", name_of(c.collective)}, {"bytes", c.bytes}, {"datatype", name_of(c.datatype)}};
  if (traits_of(c.collective).reduces) j["op"] = name_of(c.op);
  j["group"] = c.group.name();
  j["group_ranks"] = c.group_ranks;
  j["count"] = c.count;
  j["label"] = c.label;
  return j;
}

json to_json(const WorkloadSource& s) {
  return json{{"kind", s.kind},
              {"files", s.files},
              {"parameters", s.parameters},
              {"skipped_lines", s.skipped_lines},
              {"notes", s.notes}};
}

// The op: required on a reduction, refused on the others.
ReduceOp op_at(const json& j, Collective c, const std::string& where) {
  const bool reduces = traits_of(c).reduces;
  if (!reduces && j.contains("op"))
    throw InputError(member_path(where, "op") + ": " + std::string(name_of(c)) + " takes no reduction op");
  if (!reduces) return ReduceOp::Sum;
  const std::string path = member_path(where, "op");
  const std::string text = field_as<std::string>(j, "op", where);
  return parsed_at(path, [&] { return parse_reduce_op(text); });
}

WorkloadCollective collective_from_json(const json& j, const std::string& where, int world_ranks) {
  if (!j.is_object()) bad_value(where, "an object", j);
  reject_unknown_keys(j, {"collective", "bytes", "datatype", "op", "group", "group_ranks", "count", "label"},
                      where);
  WorkloadCollective c;
  const std::string name = field_as<std::string>(j, "collective", where);
  c.collective = parsed_at(member_path(where, "collective"), [&] { return parse_collective(name); });
  const std::string type = field_as<std::string>(j, "datatype", where);
  c.datatype = parsed_at(member_path(where, "datatype"), [&] { return parse_data_type(type); });
  c.op = op_at(j, c.collective, where);
  const std::string group = field_as<std::string>(j, "group", where);
  c.group = parsed_at(member_path(where, "group"), [&] { return parse_group_spec(group, ""); });
  c.group_ranks = static_cast<int>(
      integer_in(required_field(j, "group_ranks", where), member_path(where, "group_ranks"), 2, world_ranks));
  c.bytes = static_cast<std::uint64_t>(
      integer_in(required_field(j, "bytes", where), member_path(where, "bytes"), 1, kMaxWorkloadBytes));
  c.count = static_cast<std::uint64_t>(
      integer_in(required_field(j, "count", where), member_path(where, "count"), 1, kMaxWorkloadCount));
  if (j.contains("label")) c.label = text_at(j["label"], member_path(where, "label"));
  check_collective(c, world_ranks, where);
  return c;
}

WorkloadSource source_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object", j);
  reject_unknown_keys(j, {"kind", "files", "parameters", "skipped_lines", "notes"}, where);
  WorkloadSource s;
  s.kind = field_as<std::string>(j, "kind", where);
  if (!is_workload_source_kind(s.kind))
    throw InputError(member_path(where, "kind") + ": unknown source " + quote_text(s.kind) +
                     " (known: " + workload_source_kinds() + ")");
  if (j.contains("files")) s.files = texts_at(j["files"], member_path(where, "files"));
  if (j.contains("notes")) s.notes = texts_at(j["notes"], member_path(where, "notes"));
  if (j.contains("parameters")) {
    s.parameters = j["parameters"];
    if (!s.parameters.is_object() && !s.parameters.is_null())
      bad_value(member_path(where, "parameters"), "an object or null", s.parameters);
  }
  if (j.contains("skipped_lines"))
    s.skipped_lines = static_cast<std::uint64_t>(
        integer_in(j["skipped_lines"], member_path(where, "skipped_lines"), 0, kMaxSkippedLines));
  return s;
}

void check_header(const json& j, const std::string& origin) {
  if (!is_workload_json(j))
    throw InputError(origin + ": not a commtune workload (no \"kind\": \"commtune-workload\")");
  reject_unknown_keys(j, {"kind", "version", "world_ranks", "collectives", "source"}, origin);
  const json& version = required_field(j, "version", origin);
  if (!version.is_number_integer() || version != kWorkloadVersion)
    bad_value(origin + ": version", "the integer " + std::to_string(kWorkloadVersion), version);
}

}  // namespace

json to_json(const Workload& workload) {
  json j{{"kind", std::string(kWorkloadKind)},
         {"version", kWorkloadVersion},
         {"world_ranks", workload.world_ranks}};
  j["collectives"] = json::array();
  for (const auto& c : workload.collectives) j["collectives"].push_back(to_json(c));
  j["source"] = to_json(workload.source);
  return j;
}

bool is_workload_json(const json& j) {
  if (!j.is_object()) return false;
  const auto kind = j.find("kind");
  return kind != j.end() && kind->is_string() && kind->get<std::string>() == kWorkloadKind;
}

Workload workload_from_json(const json& j, const std::string& origin) {
  check_header(j, origin);
  Workload w;
  w.world_ranks = static_cast<int>(
      integer_in(required_field(j, "world_ranks", origin), origin + ": world_ranks", 2, kMaxWorldRanks));
  const std::string list = origin + ": collectives";
  const json& collectives = bounded_list(required_field(j, "collectives", origin), list);
  if (collectives.empty()) throw InputError(list + ": no collective (a step has at least one)");
  for (std::size_t i = 0; i < collectives.size(); ++i)
    w.collectives.push_back(collective_from_json(collectives[i], item_path(list, i), w.world_ranks));
  w.source = source_from_json(required_field(j, "source", origin), origin + ": source");
  return w;
}

Workload read_workload_file(const std::string& path) {
  return workload_from_json(read_json_file(path, "workload file"), path);
}

}  // namespace commtune
