#include "report/html_sections.hpp"

#include <algorithm>
#include <map>

#include "html/bar_chart.hpp"
#include "html/escape.hpp"
#include "html/figure.hpp"
#include "html/number_text.hpp"
#include "html/palette.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

using Group = std::pair<std::string, Collective>;

constexpr std::size_t kShownDifferences = 12;  // the rest behind a <details>

std::string provenance_block(const CompareDocument& doc) {
  if (doc.provenance.empty()) return "<p>Provenance: no difference between baseline and current.</p>\n";
  html::Table first{{"field", "baseline", "current"}, {}, {}}, rest = first;
  for (const auto& p : doc.provenance)
    (first.rows.size() < kShownDifferences ? first : rest).rows.push_back({p.field, p.baseline, p.current});
  std::string out = "<h3>Provenance differences (" + std::to_string(doc.provenance.size()) + ")</h3>\n" +
                    html::render_table(first, "provenance-differences") + "\n";
  if (!rest.rows.empty())
    out += "<details><summary>" + std::to_string(rest.rows.size()) + " more</summary>" +
           html::render_table(rest, "provenance-differences") + "</details>\n";
  return out;
}

std::string verdict_text(const ComparedCase& c) { return std::string(name_of(c.verdict)); }

html::Bar bar_of(const ComparedCase& c) {
  const double low = c.change_low.value_or(c.change) * 100, high = c.change_high.value_or(c.change) * 100;
  return {static_cast<double>(c.bytes),
          c.placement == Placement::InPlace ? 1u : 0u,
          c.change * 100,
          low,
          high,
          html::verdict_colour(verdict_text(c)),
          false,
          verdict_text(c),
          html::binary_size(static_cast<double>(c.bytes)) + " " + std::string(name_of(c.placement)) + ": " +
              html::signed_percent(c.change) + " " + verdict_text(c) +
              (c.note.empty() ? "" : " (" + c.note + ")")};
}

html::Table case_table(const std::vector<const ComparedCase*>& cases) {
  html::Table t{{"size", "placement", "change", "interval", "verdict", "note"},
                {},
                {true, false, true, false, false, false}};
  for (const auto* c : cases)
    t.rows.push_back(
        {html::binary_size(static_cast<double>(c->bytes)), std::string(name_of(c->placement)),
         html::signed_percent(c->change),
         c->change_low ? html::signed_percent(*c->change_low) + " .. " + html::signed_percent(*c->change_high)
                       : "-",
         verdict_text(*c), c->note});
  return t;
}

std::string counts_text(const std::vector<const ComparedCase*>& cases) {
  std::string out;
  for (const char* v : {"SLOWER", "FASTER", "SAME", "AMBIGUOUS"}) {
    const auto n =
        std::count_if(cases.begin(), cases.end(), [&](auto* c) { return name_of(c->verdict) == v; });
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + v;
  }
  return out;
}

std::string group_figure(const std::string& path, const Group& group,
                         const std::vector<const ComparedCase*>& cases) {
  const std::string name = group.first + " " + std::string(name_of(group.second));
  html::BarChart chart{name + ": change per case", "", {}, {}, 2, {}, {}};
  double lo = 1e300, hi = 0, y_lo = 0, y_hi = 0;
  for (const auto* c : cases) {
    chart.bars.push_back(bar_of(*c));
    lo = std::min(lo, static_cast<double>(c->bytes)), hi = std::max(hi, static_cast<double>(c->bytes));
    y_lo = std::min(y_lo, chart.bars.back().low), y_hi = std::max(y_hi, chart.bars.back().high);
    y_lo = std::min(y_lo, chart.bars.back().value), y_hi = std::max(y_hi, chart.bars.back().value);
  }
  chart.x = html::fitted_axis(html::Scale::Log2Bytes, lo / 2, hi * 2,
                              "message size (left bar out-of-place, right in-place)");
  chart.y = html::fitted_axis(html::Scale::Linear, std::min(y_lo, -5.0), std::max(y_hi, 5.0),
                              "time change (%, up is slower)");
  for (const char* v : {"FASTER", "SLOWER", "SAME", "AMBIGUOUS"})
    chart.legend.push_back({v, html::verdict_colour(v), "", false, true});
  chart.description = name + ": " + std::to_string(cases.size()) + " case(s) from " + html::binary_size(lo) +
                      " to " + html::binary_size(hi) + ": " + counts_text(cases) + ".";
  return html::render_figure({path + "-" + name + "-compare", chart.title, html::render_bar_chart(chart),
                              chart.description, case_table(cases)});
}

}  // namespace

html::Section compare_section(const CompareDocument& doc, const std::string& path) {
  std::string body = provenance_block(doc) + "<p><strong>" + html::escape(doc.summary) + "</strong></p>\n";
  for (const auto& note : doc.notes) body += "<p class=\"note\">" + html::escape(note) + "</p>\n";
  std::vector<Group> order;
  std::map<Group, std::vector<const ComparedCase*>> groups;
  for (const auto& c : doc.cases) {
    const Group g{c.setting, c.collective};
    if (!groups.count(g)) order.push_back(g);
    groups[g].push_back(&c);
  }
  for (const auto& g : order) body += group_figure(path, g, groups[g]);
  return {"compare-" + path, "Compare: " + path, body};
}

}  // namespace commtune
