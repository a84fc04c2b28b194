#include "results/results_document.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "ceiling/ceiling.hpp"
#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/json_file.hpp"
#include "core/plausible_bounds.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

using nlohmann::json;

// An object field of the document: its path is "ORIGIN: KEY".
const json& object_field(const json& j, const char* key, const std::string& origin) {
  const json& value = required_field(j, key, origin);
  if (!value.is_object()) bad_value(origin + ": " + key, "an object", value);
  return value;
}

void check_strings(const json& list, const std::string& path) {
  if (!list.is_array()) bad_value(path, "a list of strings", list);
  for (std::size_t i = 0; i < list.size(); ++i)
    value_as<std::string>(list[i], path + "[" + std::to_string(i) + "]");
}

// Provenance is free-form, but the fields that tune and compare read must have their types.
void check_provenance(const json& p, const std::string& where) {
  if (field_as<std::string>(p, "tool", where) != "commtune")
    throw InputError(member_path(where, "tool") + ": not written by commtune");
  if (p.contains("labels")) check_strings(p["labels"], member_path(where, "labels"));
  if (p.contains("argv")) check_strings(p["argv"], member_path(where, "argv"));
  if (p.contains("ceiling")) ceiling_from_json(p["ceiling"], member_path(where, "ceiling"));
  if (!p.contains("layout")) return;
  const json& layout = p["layout"];
  const std::string at = member_path(where, "layout");
  if (!layout.is_object()) bad_value(at, "an object", layout);
  for (const char* key : {"nranks", "nhosts"})
    if (layout.contains(key)) integer_in(layout[key], member_path(at, key), 1, kMaxPlausibleCount);
}

// A case's efficiency is busbw / the run's ceiling: only with a ceiling, only on a measured case,
// and equal to what the case's own busbw gives.
void check_efficiency(const json& j, const CaseResult& r, const std::optional<Ceiling>& ceiling,
                      const std::string& where) {
  if (!j.contains("efficiency")) return;
  const std::string path = member_path(where, "efficiency");
  if (!ceiling) throw InputError(path + ": a case has an efficiency only when provenance.ceiling exists");
  if (!r.measured()) throw InputError(path + ": a case that did not measure has no efficiency");
  // No upper bound of its own: above 1 is possible (in-network reduction, a one-rank collective
  // that moves nothing, a host ceiling measured on a busy machine); it must equal busbw / ceiling.
  const double e = number_in(j["efficiency"], path, 0, std::numeric_limits<double>::max());
  const double expected = efficiency(r.busbw_gbps, *ceiling);
  if (std::abs(e - expected) > 1e-6 * std::max(1.0, expected))
    throw InputError(path + ": " + describe_json(j["efficiency"]) +
                     " is not busbw_gbps / provenance.ceiling.gbps (" + nlohmann::json(expected).dump() +
                     ")");
}

std::string schema_at(const json& document, const std::string& origin) {
  const std::string path = origin + ": schema_version";
  const json& version = required_field(document, "schema_version", origin);
  if (!version.is_number_integer())
    bad_value(path, "the integer " + std::to_string(kResultsSchemaVersion), version);
  if (version != kResultsSchemaVersion)
    throw InputError(path + ": version " + describe_json(version) +
                     " is not supported (this commtune reads version " +
                     std::to_string(kResultsSchemaVersion) + ")");
  return path;
}

BackendKind backend_at(const json& document, const std::string& origin) {
  return parse_backend(top_field_as<std::string>(document, "backend", origin), origin + ": backend");
}

std::vector<Setting> settings_at(const json& document, const std::string& origin) {
  const json& list = required_field(document, "settings", origin);
  if (!list.is_array()) bad_value(origin + ": settings", "a list of settings", list);
  std::vector<Setting> settings;
  for (std::size_t i = 0; i < list.size(); ++i)
    settings.push_back(setting_from_json(list[i], origin + ": settings[" + std::to_string(i) + "]"));
  parsed_at(origin + ": settings", [&] {
    validate_setting_names(settings);
    return 0;
  });
  return settings;
}

using DocumentCaseKey =
    std::tuple<std::string, Collective, std::uint64_t, DataType, ReduceOp, int, Placement, std::string>;

// Cases must name a listed setting, agree on the rank count (the communicator's; provenance.layout
// counts the supervising processes; a case of another group spec than world counts its slowest
// group's ranks), and each be measured once.
class CaseChecks {
 public:
  explicit CaseChecks(const std::vector<Setting>& settings) {
    for (const auto& s : settings) names_.insert(s.name);
  }

  void check(const CaseResult& r, std::size_t index, const std::string& where) {
    if (!names_.count(r.setting))
      throw InputError(member_path(where, "setting") + ": " + quote_text(r.setting) +
                       " is not one of the file's settings");
    if (!r.spec.group.is_world()) {
      if (r.groups && r.nranks != static_cast<int>(r.groups->groups[r.groups->slowest].ranks.size()))
        throw InputError(member_path(where, "nranks") + ": " + std::to_string(r.nranks) +
                         " ranks, but its slowest group has " +
                         std::to_string(r.groups->groups[r.groups->slowest].ranks.size()));
    } else if (nranks_ == 0) {
      nranks_ = r.nranks;
    }
    if (r.spec.group.is_world() && r.nranks != nranks_)
      throw InputError(member_path(where, "nranks") + ": " + std::to_string(r.nranks) +
                       " ranks, but the first case of the world had " + std::to_string(nranks_));
    const DocumentCaseKey key{r.setting, r.spec.collective, r.spec.bytes,     r.spec.dtype,
                              r.spec.op, r.spec.root,       r.spec.placement, r.spec.group.name()};
    const auto [it, inserted] = seen_.emplace(key, index);
    if (!inserted) throw InputError(where + ": the same case as cases[" + std::to_string(it->second) + "]");
  }

 private:
  std::set<std::string> names_;
  int nranks_ = 0;
  std::map<DocumentCaseKey, std::size_t> seen_;
};

}  // namespace

ResultsDocument results_from_json(const json& document, const std::string& origin) {
  if (!document.is_object()) throw InputError(origin + ": not a commtune results file (not a JSON object)");
  if (!document.contains("schema_version") || !document.contains("cases"))
    throw InputError(origin + ": not a commtune results file (no schema_version / cases)");
  ResultsDocument doc;
  schema_at(document, origin);
  doc.schema_version = kResultsSchemaVersion;
  doc.backend = backend_at(document, origin);
  doc.provenance = object_field(document, "provenance", origin);
  check_provenance(doc.provenance, origin + ": provenance");
  doc.sweep = object_field(document, "sweep", origin);
  if (doc.sweep.contains("margin")) {
    const std::string path = origin + ": sweep.margin";
    doc.decision = decision_rule(number_in(doc.sweep["margin"], path, 0, 1), path);
  }
  doc.settings = settings_at(document, origin);
  if (document.contains("warnings")) check_strings(document["warnings"], origin + ": warnings");
  doc.complete = top_field_as<bool>(document, "complete", origin);
  const json& cases = document["cases"];
  if (!cases.is_array()) bad_value(origin + ": cases", "a list of cases", cases);
  CaseChecks checks(doc.settings);
  const std::optional<Ceiling> ceiling =
      doc.provenance.contains("ceiling")
          ? std::optional(ceiling_from_json(doc.provenance["ceiling"], "provenance.ceiling"))
          : std::nullopt;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string where = origin + ": cases[" + std::to_string(i) + "]";
    doc.cases.push_back(case_from_json(cases[i], where));
    check_efficiency(cases[i], doc.cases.back(), ceiling, where);
    checks.check(doc.cases.back(), i, where);
    if (doc.cases.back().nccl_choice && doc.backend != BackendKind::Nccl)
      throw InputError(member_path(where, "nccl_choice") +
                       ": only an NCCL results file records what NCCL chose");
  }
  return doc;
}

ResultsDocument load_results(const std::string& path) {
  return results_from_json(read_json_file(path, "results file"), path);
}

void require_usable_results(const ResultsDocument& doc, const std::string& origin, bool allow_incomplete) {
  if (doc.cases.empty())
    throw InputError(origin + ": cases: the results file has no case (nothing was measured)");
  if (!doc.complete && !allow_incomplete)
    throw InputError(origin + ": complete: false: the sweep was interrupted after " +
                     std::to_string(doc.cases.size()) +
                     " case(s); pass --allow-incomplete to use them anyway");
}

std::string incomplete_note(const ResultsDocument& doc) {
  return "from an interrupted sweep (\"complete\": false): only " + std::to_string(doc.cases.size()) +
         " finished case(s), allowed by --allow-incomplete";
}

}  // namespace commtune
