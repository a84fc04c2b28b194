#pragma once
// Provenance values as a person reads them, whatever their shape. The results reader checks little
// of provenance (docs/results-schema.md: free-form facts), so each field's presenter
// (html_provenance_run, _layout, _nccl) falls back to these when a value is not what it expects:
// text instead of JSON, nested objects as a small table of readable rows, long lists collapsed.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "html/fact_table.hpp"

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

}  // namespace commtune
