#pragma once
// One thing the doctor found: what (a stable id), how bad, on what, the evidence read or
// measured, and what to do about it. Checks and measured findings both produce these.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace commtune {

// Info: worth knowing, not a problem. Warning: costs bandwidth or breaks some setups.
// Critical: a fast path is off or a link is down.
enum class Severity { Info, Warning, Critical };

std::string_view name_of(Severity s);

struct Finding {
  std::string id;  // stable, for scripts: "pcie-downtrained", "slow-node", ...
  Severity severity = Severity::Info;
  std::string subject;   // the device, node, pair or rank it is about
  std::string evidence;  // what was read or measured, with the numbers
  std::string action;    // what to do
};

// Most severe first; ties keep their order (the checks' order).
void rank_findings(std::vector<Finding>& findings);

// True when any finding is a warning or worse: the doctor's exit code 1.
bool needs_attention(const std::vector<Finding>& findings);

nlohmann::json to_json(const Finding& f);
nlohmann::json to_json(const std::vector<Finding>& findings);

// A finding read back from its JSON: a doctor report's, or the checks' findings of every node on
// their way to rank 0. Throws InputError naming `where` and the field on another shape.
Finding finding_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
