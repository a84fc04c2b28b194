#include "inputs/doctor_report_json.hpp"

#include "core/json_fields.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr double kMaxGbps = 1e6, kMaxLatencyUs = 1e9;

Severity severity_at(const json& f, const std::string& where) {
  const std::string text = field_as<std::string>(f, "severity", where);
  for (const Severity s : {Severity::Info, Severity::Warning, Severity::Critical})
    if (text == name_of(s)) return s;
  bad_value(member_path(where, "severity"), "info, warning or critical", f["severity"]);
}

Finding finding_from_json(const json& f, const std::string& where) {
  return Finding{field_as<std::string>(f, "id", where), severity_at(f, where),
                 field_as<std::string>(f, "subject", where), field_as<std::string>(f, "evidence", where),
                 field_as<std::string>(f, "action", where)};
}

// n rows of n entries, each null or a number in [0, high].
std::vector<std::vector<std::optional<double>>> matrix_at(const json& v, const std::string& path,
                                                          std::size_t n, double high) {
  if (!v.is_array() || v.size() != n) bad_value(path, "a list of " + std::to_string(n) + " rows", v);
  std::vector<std::vector<std::optional<double>>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row_path = path + "[" + std::to_string(i) + "]";
    if (!v[i].is_array() || v[i].size() != n)
      bad_value(row_path, "a list of " + std::to_string(n) + " values", v[i]);
    for (std::size_t k = 0; k < n; ++k) {
      if (v[i][k].is_null())
        rows[i].push_back(std::nullopt);
      else
        rows[i].push_back(number_in(v[i][k], row_path + "[" + std::to_string(k) + "]", 0, high));
    }
  }
  return rows;
}

PairMap map_from_json(const json& m, const std::string& where) {
  PairMap map;
  const json& members = list_at(required_field(m, "members", where), where + ".members");
  if (members.empty() || members.size() > kMaxMapMembers)
    bad_value(where + ".members", "1 to " + std::to_string(kMaxMapMembers) + " names", members);
  for (std::size_t i = 0; i < members.size(); ++i)
    map.members.push_back(value_as<std::string>(members[i], where + ".members[" + std::to_string(i) + "]"));
  map.member_kind = field_as<std::string>(m, "member", where);
  map.message_bytes = static_cast<std::uint64_t>(
      integer_in(required_field(m, "message_bytes", where), where + ".message_bytes", 1, 1ll << 40));
  map.gbps = matrix_at(required_field(m, "gbps", where), where + ".gbps", map.members.size(), kMaxGbps);
  map.latency_us = matrix_at(required_field(m, "latency_us", where), where + ".latency_us",
                             map.members.size(), kMaxLatencyUs);
  return map;
}

std::vector<NodeGpuMap> node_gpus_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object with \"maps\"", j);
  const json& maps = list_at(required_field(j, "maps", where), where + ".maps");
  if (maps.size() > kMaxMapMembers)
    bad_value(where + ".maps", "at most " + std::to_string(kMaxMapMembers) + " maps", maps);
  std::vector<NodeGpuMap> out;
  for (std::size_t i = 0; i < maps.size(); ++i) {
    const std::string path = where + ".maps[" + std::to_string(i) + "]";
    if (!maps[i].is_object()) bad_value(path, "an object with \"host\" and \"pairwise\"", maps[i]);
    out.push_back(NodeGpuMap{field_as<std::string>(maps[i], "host", path),
                             map_from_json(required_field(maps[i], "pairwise", path), path + ".pairwise")});
  }
  return out;
}

}  // namespace

bool is_doctor_json(const json& j) {
  return j.is_object() && j.contains("tool") && j["tool"] == "commtune doctor";
}

DoctorDocument doctor_document_from_json(const json& j, const std::string& origin) {
  if (!is_doctor_json(j))
    throw InputError(origin + ": not a commtune doctor report (\"tool\": \"commtune doctor\")");
  DoctorDocument doc;
  doc.healthy = top_field_as<bool>(j, "healthy", origin);
  const json& findings = list_at(required_field(j, "findings", origin), origin + ": findings");
  for (std::size_t i = 0; i < findings.size(); ++i)
    doc.findings.push_back(finding_from_json(findings[i], origin + ": findings[" + std::to_string(i) + "]"));
  if (j.contains("ceiling")) doc.ceiling = ceiling_from_json(j["ceiling"], origin + ": ceiling");
  if (j.contains("pairwise")) doc.pairwise = map_from_json(j["pairwise"], origin + ": pairwise");
  if (j.contains("node_gpus")) doc.node_gpus = node_gpus_from_json(j["node_gpus"], origin + ": node_gpus");
  return doc;
}

}  // namespace commtune
