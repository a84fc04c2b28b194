#include "doctor/finding.hpp"

#include <algorithm>

#include "core/json_fields.hpp"

namespace commtune {
namespace {

Severity severity_at(const nlohmann::json& f, const std::string& where) {
  const std::string text = field_as<std::string>(f, "severity", where);
  for (const Severity s : {Severity::Info, Severity::Warning, Severity::Critical})
    if (text == name_of(s)) return s;
  bad_value(member_path(where, "severity"), "info, warning or critical", f["severity"]);
}

}  // namespace

std::string_view name_of(Severity s) {
  switch (s) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Critical:
      return "critical";
  }
  return "info";
}

void rank_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
}

bool needs_attention(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity != Severity::Info; });
}

nlohmann::json to_json(const Finding& f) {
  return {{"id", f.id},
          {"severity", name_of(f.severity)},
          {"subject", f.subject},
          {"evidence", f.evidence},
          {"action", f.action}};
}

nlohmann::json to_json(const std::vector<Finding>& findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& f : findings) list.push_back(to_json(f));
  return list;
}

Finding finding_from_json(const nlohmann::json& j, const std::string& where) {
  const auto text = [&](const char* key) { return field_as<std::string>(j, key, where); };
  return Finding{.id = text("id"),
                 .severity = severity_at(j, where),
                 .subject = text("subject"),
                 .evidence = text("evidence"),
                 .action = text("action")};
}

}  // namespace commtune
