#include "report/html_provenance_facts.hpp"

#include <algorithm>
#include <utility>

#include "html/number_text.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxFlatRows = 200;  // a nested value's rows beyond these are counted, not shown

bool is_leaf(const json& v) {
  if (v.is_array()) return std::none_of(v.begin(), v.end(), [](const json& e) { return e.is_structured(); });
  return !v.is_object();
}

// Every leaf of `v` as (path, text), the path's parts joined with " / ".
void flatten(const json& v, const std::string& path, std::vector<std::vector<std::string>>& rows,
             std::size_t& total) {
  if (is_leaf(v) || v.empty()) {
    if (++total <= kMaxFlatRows) rows.push_back({path.empty() ? "value" : path, scalar_text(v)});
    return;
  }
  const std::string prefix = path.empty() ? "" : path + " / ";
  if (v.is_object())
    for (const auto& [key, member] : v.items()) flatten(member, prefix + readable_key(key), rows, total);
  else
    for (std::size_t i = 0; i < v.size(); ++i)
      flatten(v[i], path + "[" + std::to_string(i) + "]", rows, total);
}

// Four significant digits without trailing zeros: 6.561, 1.5, 120, 85899345920.
std::string plain_number(double value) {
  std::string text = html::number(value, 4);
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string cut(std::string text, std::size_t limit) {
  if (text.size() > limit) text = text.substr(0, limit) + " ...";
  return text;
}

std::string readable_key(const std::string& key) {
  std::string out = key;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string scalar_text(const json& v) {
  if (v.is_string()) return cut(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_null()) return "none";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number()) return plain_number(v.get<double>());
  if (v.is_array() && is_leaf(v)) return v.empty() ? "none" : counted_list(v);
  if (v.is_object() && v.empty()) return "none";
  return cut(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string counted_list(const json& list) {
  std::vector<std::pair<std::string, std::size_t>> counts;  // in order of first appearance
  for (const auto& e : list) {
    const std::string text = e.is_string() ? e.get<std::string>() : scalar_text(e);
    const auto at =
        std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == text; });
    if (at == counts.end())
      counts.emplace_back(text, 1);
    else
      ++at->second;
  }
  std::string out;
  for (const auto& [text, n] : counts)
    out += (out.empty() ? "" : ", ") + (n > 1 ? std::to_string(n) + " x " : "") + text;
  return cut(out);
}

std::string string_at(const json& object, const std::string& key) {
  if (!object.is_object()) return "";
  const auto at = object.find(key);
  return at != object.end() && at->is_string() ? at->get<std::string>() : "";
}

std::string value_html(const json& v) {
  if (v.is_string()) return html::text_lines(lines_of(cut(v.get<std::string>())));
  if (is_leaf(v) || v.empty()) return html::text_lines({scalar_text(v)});
  html::Table table{{"field", "value"}, {}, {}};
  std::size_t total = 0;
  flatten(v, "", table.rows, total);
  if (total > kMaxFlatRows)
    table.rows.push_back({"...", std::to_string(total - kMaxFlatRows) + " more fields not shown"});
  return html::render_collapsed_table(table, "provenance-detail", kShownRows, "fields");
}

void add_value(const std::string& label, const json& value, ProvenanceFacts& rows) {
  rows.push_back({label, value_html(value)});
}

void add_other_members(const json& object, const std::vector<std::string>& handled, const std::string& prefix,
                       ProvenanceFacts& rows) {
  if (!object.is_object()) return;
  for (const auto& [key, member] : object.items())
    if (std::find(handled.begin(), handled.end(), key) == handled.end())
      add_value(prefix + readable_key(key), member, rows);
}

}  // namespace commtune
