#include "doctor/doctor_report.hpp"

#include "core/errors.hpp"
#include "core/json_fields.hpp"

namespace commtune {
namespace {

using nlohmann::json;

json to_json(const NodeGpuMaps& n) {
  json maps = json::array();
  for (const NodeGpuMap& node : n.maps)
    maps.push_back({{"host", node.host}, {"pairwise", to_json(node.map)}});
  json j{{"maps", maps}};
  if (n.ceiling) j["ceiling"] = to_json(*n.ceiling);
  if (n.failure) j["failure"] = *n.failure;
  return j;
}

NodeGpuMaps node_gpu_maps_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object with \"maps\"", j);
  const json& maps = list_at(required_field(j, "maps", where), where + ".maps");
  if (maps.size() > kMaxMapMembers)
    bad_value(where + ".maps", "at most " + std::to_string(kMaxMapMembers) + " maps", maps);
  NodeGpuMaps out;
  for (std::size_t i = 0; i < maps.size(); ++i) {
    const std::string path = where + ".maps[" + std::to_string(i) + "]";
    if (!maps[i].is_object()) bad_value(path, "an object with \"host\" and \"pairwise\"", maps[i]);
    out.maps.push_back(
        NodeGpuMap{.host = field_as<std::string>(maps[i], "host", path),
                   .map = pair_map_from_json(required_field(maps[i], "pairwise", path), path + ".pairwise")});
  }
  if (j.contains("ceiling")) out.ceiling = ceiling_from_json(j["ceiling"], where + ".ceiling");
  if (j.contains("failure")) out.failure = field_as<std::string>(j, "failure", where);
  return out;
}

std::vector<Finding> findings_from_json(const json& j, const std::string& origin) {
  const json& list = list_at(required_field(j, "findings", origin), origin + ": findings");
  std::vector<Finding> findings;
  for (std::size_t i = 0; i < list.size(); ++i)
    findings.push_back(finding_from_json(list[i], origin + ": findings[" + std::to_string(i) + "]"));
  return findings;
}

}  // namespace

json to_json(const DoctorReport& report) {
  json doc{{"tool", "commtune doctor"},
           {"backend", name_of(report.backend)},
           {"findings", to_json(report.findings)},
           {"healthy", report.healthy()}};
  if (report.ceiling) doc["ceiling"] = to_json(*report.ceiling);
  if (report.pairwise) doc["pairwise"] = to_json(*report.pairwise);
  if (report.pairwise_failure) doc["pairwise_failure"] = *report.pairwise_failure;
  if (report.node_gpus) doc["node_gpus"] = to_json(*report.node_gpus);
  return doc;
}

bool is_doctor_json(const json& j) {
  return j.is_object() && j.contains("tool") && j["tool"] == "commtune doctor";
}

DoctorReport doctor_report_from_json(const json& j, const std::string& origin) {
  if (!is_doctor_json(j))
    throw InputError(origin + ": not a commtune doctor report (\"tool\": \"commtune doctor\")");
  DoctorReport report{.findings = findings_from_json(j, origin)};
  if (j.contains("backend"))  // else the MPI doctor's report from before every report named its backend
    report.backend = parse_backend(top_field_as<std::string>(j, "backend", origin), origin + ": backend");
  const bool healthy = top_field_as<bool>(j, "healthy", origin);
  if (healthy != report.healthy())
    bad_value(origin + ": healthy",
              report.healthy() ? "true (no finding needs attention)" : "false (a finding needs attention)",
              j["healthy"]);
  if (j.contains("ceiling")) report.ceiling = ceiling_from_json(j["ceiling"], origin + ": ceiling");
  if (j.contains("pairwise")) report.pairwise = pair_map_from_json(j["pairwise"], origin + ": pairwise");
  if (j.contains("pairwise_failure"))
    report.pairwise_failure = top_field_as<std::string>(j, "pairwise_failure", origin);
  if (j.contains("node_gpus"))
    report.node_gpus = node_gpu_maps_from_json(j["node_gpus"], origin + ": node_gpus");
  return report;
}

void print_findings(const std::vector<Finding>& findings, std::ostream& out) {
  out << "#\n# findings, most severe first (" << findings.size() << ")\n";
  if (findings.empty()) out << "  none: healthy\n";
  for (const auto& f : findings)
    out << "  [" << name_of(f.severity) << "] " << f.id << " " << f.subject
        << "\n      evidence: " << f.evidence << "\n      do: " << f.action << "\n";
}

int doctor_exit_code(const DoctorReport& report) { return report.healthy() ? 0 : 1; }

}  // namespace commtune
