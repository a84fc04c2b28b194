#include "report/html_provenance.hpp"

#include "html/escape.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxFactChars = 400;

std::string cut(std::string text) {
  if (text.size() > kMaxFactChars) text = text.substr(0, kMaxFactChars) + " ...";
  return text;
}

std::string fact_text(const json& v) {
  if (v.is_string()) return cut(v.get<std::string>());
  if (v.is_array() && std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); })) {
    std::string out;
    for (const auto& e : v) {
      if (!out.empty()) out += ' ';
      out += e.get<std::string>();
    }
    return cut(out);
  }
  return cut(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

// "n1 (AMD EPYC, 2 cores), n2 (...)": the hosts of a rank layout.
std::string hosts_text(const json& layout) {
  std::string out;
  const auto hosts = layout.find("hosts");
  if (hosts == layout.end() || !hosts->is_object()) return "";
  for (const auto& [name, facts] : hosts->items()) {
    std::string detail;
    if (facts.is_object() && facts.contains("cpu_model")) detail = fact_text(facts["cpu_model"]);
    if (facts.is_object() && facts.contains("cores")) detail += ", " + fact_text(facts["cores"]) + " cores";
    if (facts.is_object() && facts.contains("gpus")) detail += ", GPUs: " + fact_text(facts["gpus"]);
    out += (out.empty() ? "" : "; ") + name + (detail.empty() ? "" : " (" + detail + ")");
  }
  return cut(out);
}

void add_layout(const json& layout, html::Table& t) {
  if (!layout.is_object()) return;
  if (layout.contains("nranks") && layout.contains("nhosts"))
    t.rows.push_back({"ranks", fact_text(layout["nranks"]) + " ranks on " + fact_text(layout["nhosts"]) + " node(s)"});
  if (const std::string hosts = hosts_text(layout); !hosts.empty()) t.rows.push_back({"hosts", hosts});
  std::string devices;
  for (const auto& r : layout.value("ranks", json::array()))
    if (r.is_object() && r.contains("device")) devices += (devices.empty() ? "" : ", ") + fact_text(r["device"]);
  if (!devices.empty()) t.rows.push_back({"devices (per rank)", cut(devices)});
}

std::string results_block(const ReportInput& input, const ResultsDocument& doc) {
  html::Table t{{"fact", "value"}, {{"file", input.path}, {"backend", doc.backend}, {"cases", std::to_string(doc.cases.size())}}, {}};
  const json& p = doc.provenance;
  if (p.is_object() && p.contains("argv")) t.rows.push_back({"command", fact_text(p["argv"])});
  if (p.is_object() && p.contains("layout")) add_layout(p["layout"], t);
  if (p.is_object())
    for (const auto& [key, value] : p.items())
      if (key != "argv" && key != "layout") t.rows.push_back({key, fact_text(value)});
  return html::render_table(t, "provenance-facts");
}

std::string headline(const ReportInput& input) {
  if (const auto* rec = std::get_if<Recommendation>(&input.content))
    return rec->backend + ", " + std::to_string(rec->nranks) + " ranks, " + std::to_string(rec->nnodes) + " node(s)";
  if (const auto* cmp = std::get_if<CompareDocument>(&input.content)) return cmp->summary;
  if (const auto* doc = std::get_if<DoctorDocument>(&input.content))
    return std::string(doc->healthy ? "healthy" : "needs attention") + ", " + std::to_string(doc->findings.size()) + " finding(s)";
  return "";
}

}  // namespace

std::string provenance_html(const std::vector<ReportInput>& inputs, const std::string& report_command) {
  std::string out = "<h2>Provenance</h2>\n";
  html::Table others{{"file", "kind", "what"}, {}, {}};
  for (const auto& input : inputs) {
    if (const auto* doc = std::get_if<ResultsDocument>(&input.content)) out += results_block(input, *doc) + "\n";
    else others.rows.push_back({input.path, std::string(kind_name(input)), headline(input)});
  }
  if (!others.rows.empty()) out += html::render_table(others, "inputs") + "\n";
  return out + "<p>Report: <code>" + html::escape(report_command) + "</code></p>\n";
}

}  // namespace commtune
