#include "doctor/finding.hpp"

#include <algorithm>

namespace commtune {

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

}  // namespace commtune
