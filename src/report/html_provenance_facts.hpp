#pragma once
// The provenance of a run as rows a person reads (ProvenanceFacts), field by field, for
// report/html_provenance's tables: the command line, the tool, the launcher and its Slurm job,
// the config and its settings (setting -> knobs), the MPI library, the ceiling (path, rate, how it
// was obtained, the published range), the environment (variable -> value), the rank layout
// ("layout": ranks on nodes, a table of the hosts and one of the ranks' places, long ones
// collapsed) and NCCL's facts (versions once when every host agrees, what recorded NCCL's own
// choice, the run's options, a table of the GPUs, each host's GPU topology folded away, its
// InfiniBand ports; also the short form of nccl-tests' JSON). docs/results-schema.md and
// docs/nccl-backend.md describe the fields.
//
// The results reader checks little of provenance (free-form facts), so each field's presenter
// falls back to the value helpers below when a value is not what it expects: text instead of
// JSON, nested objects as a small table of readable rows, long lists collapsed.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "html/fact_table.hpp"
#include "plan/setting.hpp"

namespace commtune {

using ProvenanceFacts = std::vector<html::FactRow>;

inline constexpr std::size_t kMaxFactChars = 400;  // a longer value ends in " ..."
inline constexpr std::size_t kShownRows = 8;       // rows of a small table shown before "N more"

std::string cut(std::string text, std::size_t limit = kMaxFactChars);
// "tool_version" -> "tool version".
std::string readable_key(const std::string& key);
// A string as it is, a number without exponent or trailing zeros, true/false as yes/no, null as
// "none", a list of such values as counted_list; anything else flattened onto one line.
std::string scalar_text(const nlohmann::json& value);
// Repeats counted: ["H100", "H100", "A100"] -> "2 x H100, A100".
std::string counted_list(const nlohmann::json& list);
// The string of `object[key]` when it is one, else "".
std::string string_at(const nlohmann::json& object, const std::string& key);
// HTML for any value: text (multi-line text as lines), or for objects and lists of objects a small
// table of field / value rows, collapsed after kShownRows.
std::string value_html(const nlohmann::json& value);
// One row: `label` and value_html(value).
void add_value(const std::string& label, const nlohmann::json& value, ProvenanceFacts& rows);
// A row per member of `object` whose key `handled` does not list, labelled `prefix` + readable key.
void add_other_members(const nlohmann::json& object, const std::vector<std::string>& handled,
                       const std::string& prefix, ProvenanceFacts& rows);

// The fields of a run's provenance; each takes the field's label and value, and shows a value of
// another shape as value_html does.
void add_command(const std::string& label, const nlohmann::json& argv, ProvenanceFacts& rows);
void add_launcher(const std::string& label, const nlohmann::json& launcher, ProvenanceFacts& rows);
void add_config(const std::string& label, const nlohmann::json& config, ProvenanceFacts& rows);
void add_mpi(const std::string& label, const nlohmann::json& mpi, ProvenanceFacts& rows);
void add_ceiling(const std::string& label, const nlohmann::json& ceiling, ProvenanceFacts& rows);
void add_environment(const std::string& label, const nlohmann::json& environment, ProvenanceFacts& rows);
// The results file's settings (not provenance, but what the config asked for): setting -> knobs.
void add_settings(const std::vector<Setting>& settings, ProvenanceFacts& rows);
// The rank layout (provenance.layout): how many ranks on how many nodes, the hosts (CPU, memory,
// GPUs counted by model), the ranks' places (host, node, local rank, process, CPU or GPU).
void add_layout(const std::string& label, const nlohmann::json& layout, ProvenanceFacts& rows);
// The NCCL facts (under the NCCL backend's name), or nccl-tests' {version, cuda_runtime, driver}.
void add_nccl(const std::string& label, const nlohmann::json& nccl, ProvenanceFacts& rows);

}  // namespace commtune
