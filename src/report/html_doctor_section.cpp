#include "report/html_doctor_section.hpp"

#include "html/escape.hpp"
#include "html/figure.hpp"
#include "html/heatmap.hpp"
#include "html/number_text.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

std::string value_text(const std::optional<double>& v, int digits) {
  return v ? html::number(*v, digits) : "-";
}

html::Table pair_table(const PairMap& map) {
  html::Table t{{"from", "to", "GB/s", "latency us"}, {}, {false, false, true, true}};
  for (std::size_t i = 0; i < map.members.size(); ++i)
    for (std::size_t j = 0; j < map.members.size(); ++j)
      if (i != j)
        t.rows.push_back({map.members[i], map.members[j], value_text(map.gbps[i][j], 4),
                          value_text(map.latency_us[i][j], 4)});
  return t;
}

std::string map_words(const PairMap& map) {
  double lo = 1e300, hi = 0;
  std::string slowest;
  for (std::size_t i = 0; i < map.members.size(); ++i)
    for (std::size_t j = 0; j < map.members.size(); ++j)
      if (const auto& v = map.gbps[i][j]) {
        if (*v < lo) lo = *v, slowest = map.members[i] + " - " + map.members[j];
        hi = std::max(hi, *v);
      }
  if (slowest.empty()) return "no pair measured.";
  return "from " + html::number(lo, 3) + " GB/s (" + slowest + ", the slowest pair) to " +
         html::number(hi, 3) + " GB/s.";
}

// `of`: what the members are part of ("" for the main map; "node n2" for a node's GPUs).
std::string map_figure(const PairMap& map, const std::string& id, const std::string& of) {
  const std::string title = (of.empty() ? "Pairwise bandwidth" : "GPUs of " + of + ": pairwise bandwidth");
  html::Heatmap heat{title + " (" + html::binary_size(static_cast<double>(map.message_bytes)) + " messages)",
                     "", map.members, map.gbps, "GB/s"};
  heat.description = "Bandwidth between every pair of " + std::to_string(map.members.size()) + " " +
                     map.member_kind + "s" + (of.empty() ? "" : " of " + of) +
                     ", row sends to column: " + map_words(map);
  return html::render_figure({id, heat.title, html::render_heatmap(heat), heat.description, pair_table(map)});
}

std::string findings_table(const DoctorReport& doc) {
  std::string out =
      "<table class=\"findings\"><thead><tr><th>severity</th><th>finding</th><th>on</th><th>evidence</th>"
      "<th>what to do</th></tr></thead><tbody>";
  for (const auto& f : doc.findings) {
    const std::string severity(name_of(f.severity));
    out += "<tr class=\"finding\"><td class=\"severity-" + severity + "\">" + severity + "</td><td>" +
           html::escape(f.id) + "</td><td>" + html::escape(f.subject) + "</td><td>" +
           html::escape(f.evidence) + "</td><td>" + html::escape(f.action) + "</td></tr>";
  }
  return out + "</tbody></table>\n";
}

}  // namespace

html::Section doctor_section(const DoctorReport& doc, const std::string& path) {
  std::string body = std::string("<p><strong>") + (doc.healthy() ? "Healthy" : "Needs attention") +
                     "</strong>: " + std::to_string(doc.findings.size()) + " finding(s).</p>\n";
  if (doc.ceiling)
    body += "<p>Ceiling: " +
            html::escape(html::number(doc.ceiling->gbps, 4) + " GB/s, " + doc.ceiling->path + " (" +
                         doc.ceiling->basis + ")") +
            "</p>\n";
  if (doc.pairwise) body += map_figure(*doc.pairwise, path + "-pairwise", "");
  if (doc.node_gpus)
    for (std::size_t n = 0; n < doc.node_gpus->maps.size(); ++n)
      body += map_figure(doc.node_gpus->maps[n].map, path + "-node-gpus-" + std::to_string(n),
                         "node " + doc.node_gpus->maps[n].host);
  body += "<h3>Findings</h3>\n" + findings_table(doc);
  return {"doctor-" + path, "Doctor: " + path, body};
}

}  // namespace commtune
