#include "doctor/doctor_report.hpp"

#include "core/errors.hpp"
#include "core/json_fields.hpp"

namespace commtune {
namespace {

nlohmann::json node_gpus_json(const NodeGpuMaps& n) {
  nlohmann::json maps = nlohmann::json::array();
  for (const NodeGpuMatrix& node : n.nodes)
    maps.push_back({{"host", node.host}, {"pairwise", to_json(node.matrix)}});
  nlohmann::json j{{"maps", maps}};
  if (n.ceiling) j["ceiling"] = to_json(*n.ceiling);
  if (n.failure) j["failure"] = *n.failure;
  return j;
}

Severity severity_named(const std::string& name, const std::string& where) {
  for (Severity s : {Severity::Info, Severity::Warning, Severity::Critical})
    if (name == name_of(s)) return s;
  throw InputError(where + ": unknown severity '" + name + "'");
}

}  // namespace

nlohmann::json to_json(const DoctorReport& report) {
  nlohmann::json doc{{"tool", "commtune doctor"},
                     {"backend", name_of(report.backend)},
                     {"findings", to_json(report.findings)},
                     {"healthy", !needs_attention(report.findings)}};
  if (report.ceiling) doc["ceiling"] = to_json(*report.ceiling);
  if (report.pairwise) doc["pairwise"] = to_json(*report.pairwise);
  if (report.pairwise_failure) doc["pairwise_failure"] = *report.pairwise_failure;
  if (report.node_gpus) doc["node_gpus"] = node_gpus_json(*report.node_gpus);
  return doc;
}

void print_findings(const std::vector<Finding>& findings, std::ostream& out) {
  out << "#\n# findings, most severe first (" << findings.size() << ")\n";
  if (findings.empty()) out << "  none: healthy\n";
  for (const auto& f : findings)
    out << "  [" << name_of(f.severity) << "] " << f.id << " " << f.subject
        << "\n      evidence: " << f.evidence << "\n      do: " << f.action << "\n";
}

int doctor_exit_code(const DoctorReport& report) { return needs_attention(report.findings) ? 1 : 0; }

Finding finding_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": not a finding");
  const auto text = [&](const char* key) { return field_as<std::string>(j, key, where); };
  return Finding{text("id"), severity_named(text("severity"), where), text("subject"), text("evidence"),
                 text("action")};
}

}  // namespace commtune
