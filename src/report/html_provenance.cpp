#include "report/html_provenance.hpp"

#include <algorithm>
#include <iterator>

#include "core/backend_kind.hpp"
#include "html/escape.hpp"
#include "html/fact_table.hpp"
#include "html/table.hpp"
#include "report/html_provenance_facts.hpp"

namespace commtune {
namespace {

using nlohmann::json;

// The provenance fields in the order a person asks about them, each with its label and how it is
// shown (nullptr: as a plain value). Fields not listed follow in the file's order.
struct Field {
  std::string key;
  const char* label;
  void (*present)(const std::string& label, const json& value, ProvenanceFacts& rows);
};
const Field kFields[] = {
    {"argv", "command", add_command},
    {"start_time", "started", nullptr},
    {"backend_choice", "backend choice", nullptr},
    {"launcher", "launcher", add_launcher},
    {"layout", "layout", add_layout},
    {"config", "config", add_config},
    {library_key(BackendKind::Mpi), "MPI", add_mpi},
    {"nccl_runtime", "NCCL runtime", nullptr},
    {library_key(BackendKind::Nccl), "NCCL", add_nccl},
    {"ceiling", "ceiling", add_ceiling},
    {"labels", "labels", nullptr},
    {"environment", "environment", add_environment},
    {"kernel", "kernel", nullptr},
};

// "commtune 0.1.0".
void add_tool(const json& p, ProvenanceFacts& rows) {
  if (!p.contains("tool")) return;
  std::string tool = scalar_text(p["tool"]);
  if (p.contains("tool_version")) tool += " " + scalar_text(p["tool_version"]);
  rows.push_back({"tool", html::text_lines({tool})});
}

void add_fields(const json& p, const ResultsDocument& doc, ProvenanceFacts& rows) {
  for (const Field& f : kFields) {
    if (p.contains(f.key)) {
      if (f.present)
        f.present(f.label, p[f.key], rows);
      else
        add_value(f.label, p[f.key], rows);
    }
    if (std::string_view(f.key) == "config") add_settings(doc.settings, rows);
  }
  std::vector<std::string> handled{"tool", "tool_version"};
  std::transform(std::begin(kFields), std::end(kFields), std::back_inserter(handled),
                 [](const Field& f) { return f.key; });
  add_other_members(p, handled, "", rows);
}

std::string results_block(const ReportInput& input, const ResultsDocument& doc) {
  ProvenanceFacts rows{{"file", html::text_lines({input.path})},
                       {"backend", html::text_lines({std::string(name_of(doc.backend))})},
                       {"cases", html::text_lines({std::to_string(doc.cases.size())})}};
  const json& p = doc.provenance;
  if (p.is_object()) {
    add_tool(p, rows);
    add_fields(p, doc, rows);
  } else {
    add_value("provenance", p, rows);
    add_settings(doc.settings, rows);
  }
  return html::render_fact_table(rows, "fact", "value", "provenance-facts");
}

std::string headline(const ReportInput& input) {
  if (const auto* rec = std::get_if<Recommendation>(&input.content))
    return std::string(name_of(rec->backend)) + ", " + std::to_string(rec->nranks) + " ranks, " +
           std::to_string(rec->nnodes) + " node(s)";
  if (const auto* cmp = std::get_if<CompareDocument>(&input.content)) return cmp->summary;
  if (const auto* doc = std::get_if<DoctorReport>(&input.content))
    return std::string(doc->healthy() ? "healthy" : "needs attention") + ", " +
           std::to_string(doc->findings.size()) + " finding(s)";
  if (const auto* replay = std::get_if<ReplayRecord>(&input.content))
    return std::string(name_of(replay->backend)) + ", " + std::to_string(replay->nranks) + " ranks, " +
           std::to_string(replay->settings.size()) + " setting(s), " + std::to_string(replay->rounds_run) +
           " round(s) of " + std::to_string(replay->options.steps) + " steps" +
           (replay->complete ? "" : ", interrupted");
  return "";
}

}  // namespace

std::string provenance_html(const std::vector<ReportInput>& inputs, const std::string& report_command) {
  std::string out = "<h2>Provenance</h2>\n";
  html::Table others{{"file", "kind", "what"}, {}, {}};
  for (const auto& input : inputs) {
    if (const auto* doc = std::get_if<ResultsDocument>(&input.content))
      out += results_block(input, *doc) + "\n";
    else
      others.rows.push_back({input.path, std::string(kind_name(input)), headline(input)});
  }
  if (!others.rows.empty()) out += html::render_table(others, "inputs") + "\n";
  return out + "<p>Report: <code>" + html::escape(report_command) + "</code></p>\n";
}

}  // namespace commtune
