#include "report/html_sections.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "ceiling/ceiling.hpp"
#include "html/escape.hpp"
#include "html/figure.hpp"
#include "html/line_plot.hpp"
#include "html/number_text.hpp"
#include "plan/setting.hpp"
#include "measure/bandwidth.hpp"
#include "writers/layout_phrase.hpp"

namespace commtune {
namespace {

using html::PlotPoint;

constexpr double kCeilingScaleFactor = 3;
using html::PlotSeries;

// The placement the plots draw: out-of-place where the file has it (nccl-tests' first columns).
Placement drawn_placement(const ResultsDocument& doc) {
  for (const auto& c : doc.cases)
    if (c.spec.placement == Placement::OutOfPlace) return Placement::OutOfPlace;
  return Placement::InPlace;
}

std::vector<const CaseResult*> measured_of(const ResultsDocument& doc, Collective collective,
                                           const GroupSpec& group, Placement placement) {
  std::vector<const CaseResult*> out;
  for (const auto& c : doc.cases)
    if (c.measured() && c.spec.collective == collective && c.spec.group == group &&
        c.spec.placement == placement)
      out.push_back(&c);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->spec.bytes < b->spec.bytes; });
  return out;
}

// Settings in the file's order, the default first.
std::vector<std::string> setting_order(const ResultsDocument& doc,
                                       const std::vector<const CaseResult*>& cases) {
  std::set<std::string> present;
  for (const auto* c : cases) present.insert(c->setting);
  std::vector<std::string> order;
  if (present.count(kDefaultSettingName)) order.push_back(kDefaultSettingName);
  for (const auto& s : doc.settings)
    if (present.count(s.name) && s.name != kDefaultSettingName) order.push_back(s.name);
  for (const auto& name : present)
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  return order;
}

// The setting the tuner chose for `collective` (its own scope, else the process scope), if any.
std::string recommended_for(const Recommendation* rec, Collective collective) {
  if (!rec) return "";
  std::string chosen;
  for (const auto& choice : rec->choices) {
    if (choice.setting == kDefaultSettingName) continue;
    if (choice.scope == name_of(collective)) return choice.setting;
    if (choice.scope == "process") chosen = choice.setting;
  }
  return chosen;
}

PlotPoint busbw_point(const CaseResult& c) {
  const double m = c.time_us.median;
  const double low = c.time_us.p95 > 0 ? c.busbw_gbps * m / c.time_us.p95 : c.busbw_gbps;
  const double high = c.time_us.p5 > 0 ? c.busbw_gbps * m / c.time_us.p5 : c.busbw_gbps;
  return {static_cast<double>(c.spec.bytes), c.busbw_gbps, low, high};
}

PlotPoint latency_point(const CaseResult& c) {
  return {static_cast<double>(c.spec.bytes), c.time_us.median, c.time_us.p5, c.time_us.p95};
}

template <typename ToPoint>
std::vector<PlotSeries> series_of(const std::vector<const CaseResult*>& cases,
                                  const std::vector<std::string>& order, const std::string& recommended,
                                  std::uint64_t max_bytes, ToPoint to_point) {
  std::vector<PlotSeries> out;
  for (const auto& name : order) {
    PlotSeries s{name,
                 {},
                 name == kDefaultSettingName || name == recommended,
                 name == recommended ? "(recommended)" : ""};
    for (const auto* c : cases) {
      if (c->setting != name || c->spec.bytes > max_bytes) continue;
      s.points.push_back(to_point(*c));
      // Fast but wrong is no candidate: the legend says so (the tuner never recommends it).
      if (c->status == CaseStatus::WrongData) s.note = "(WRONG DATA)";
    }
    if (!s.points.empty()) out.push_back(std::move(s));
  }
  return out;
}

struct Extent {
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
};

Extent extent_of(const std::vector<PlotSeries>& series) {
  Extent e{1e300, 0, 1e300, 0};
  for (const auto& s : series)
    for (const auto& p : s.points) {
      e.x_lo = std::min(e.x_lo, p.x), e.x_hi = std::max(e.x_hi, p.x);
      e.y_lo = std::min(e.y_lo, p.y_low > 0 ? p.y_low : p.y),
      e.y_hi = std::max(e.y_hi, std::max(p.y_high, p.y));
    }
  return e;
}

// The default's busbw at the largest size it measured, against the ceiling.
std::string ceiling_label(const Ceiling& ceiling, const std::vector<PlotSeries>& series) {
  std::string label = "ceiling " + html::number(ceiling.gbps, 3) + " GB/s (" + ceiling.path + ")";
  for (const auto& s : series)
    if (s.name == kDefaultSettingName && !s.points.empty()) {
      const PlotPoint& last = s.points.back();
      label += ": default at " + html::binary_size(last.x) + " reaches " +
               html::number(efficiency(last.y, ceiling) * 100, 3) + "%";
    }
  return label;
}

std::string peak_words(const std::vector<PlotSeries>& series) {
  std::string words;
  for (const auto& s : series) {
    const auto peak =
        std::max_element(s.points.begin(), s.points.end(), [](auto& a, auto& b) { return a.y < b.y; });
    words += " " + s.name + " peaks at " + html::number(peak->y, 3) + " GB/s at " +
             html::binary_size(peak->x) + ".";
  }
  return words;
}

html::Table busbw_table(const std::vector<const CaseResult*>& cases, const std::optional<Ceiling>& ceiling) {
  html::Table t{{"size", "setting", "time us (median)", "p5 us", "p95 us", "algbw GB/s", "busbw GB/s"},
                {},
                {true, false, true, true, true, true, true}};
  if (ceiling) t.headers.push_back("eff %"), t.numeric.push_back(true);
  const bool any_choice =
      std::any_of(cases.begin(), cases.end(), [](auto* c) { return c->nccl_choice.has_value(); });
  if (any_choice) t.headers.push_back("NCCL chose"), t.numeric.push_back(false);
  for (const auto* c : cases) {
    std::vector<std::string> row{html::binary_size(static_cast<double>(c->spec.bytes)),
                                 c->setting,
                                 html::number(c->time_us.median, 4),
                                 html::number(c->time_us.p5, 4),
                                 html::number(c->time_us.p95, 4),
                                 html::number(c->algbw_gbps, 4),
                                 html::number(c->busbw_gbps, 4)};
    if (ceiling) row.push_back(html::number(efficiency(c->busbw_gbps, *ceiling) * 100, 3));
    if (any_choice) row.push_back(c->nccl_choice ? describe(*c->nccl_choice) : "");
    t.rows.push_back(std::move(row));
  }
  return t;
}

// What a figure shows: a collective on the world, or on the groups of another spec (--groups).
struct FigureName {
  std::string words;  // "allreduce", "allreduce on groups MOD 2"
  std::string id;     // "allreduce", "allreduce-mod-2"
};

FigureName figure_name(Collective collective, const GroupSpec& group) {
  const std::string collective_name(name_of(collective));
  return {collective_name + group_words(group.name()), collective_name + group_id(group.name())};
}

std::string busbw_figure(const ResultsDocument& doc, const std::string& path, const FigureName& name,
                         const std::vector<const CaseResult*>& cases, const std::string& recommended) {
  const auto series = series_of(cases, setting_order(doc, cases), recommended, UINT64_MAX, busbw_point);
  const std::optional<Ceiling> ceiling = ceiling_from_provenance(doc.provenance);
  Extent e = extent_of(series);
  // The ceiling is drawn to scale unless far above every point (host memory against a slow
  // network): then it is named at the top, and the curves keep the plot's height.
  if (ceiling && ceiling->gbps <= kCeilingScaleFactor * e.y_hi) e.y_hi = std::max(e.y_hi, ceiling->gbps);
  html::LinePlot plot{name.words + ": busbw against size",
                      "",
                      html::fitted_axis(html::Scale::Log2Bytes, e.x_lo, e.x_hi, "message size"),
                      html::fitted_axis(html::Scale::Linear, 0, e.y_hi * 1.05, "busbw (GB/s)"),
                      series,
                      {}};
  if (ceiling) plot.references.push_back({ceiling->gbps, ceiling_label(*ceiling, series)});
  plot.description = "busbw of " + name.words + " (" + std::string(name_of(cases.front()->spec.placement)) +
                     ") from " + html::binary_size(e.x_lo) + " to " + html::binary_size(e.x_hi) + ", " +
                     std::to_string(series.size()) + " setting(s), shaded: p5-p95." + peak_words(series) +
                     (ceiling ? " " + plot.references.front().label + "." : "");
  return html::render_figure({path + "-" + name.id + "-busbw", plot.title, html::render_line_plot(plot),
                              plot.description, busbw_table(cases, ceiling)});
}

html::Table latency_table(const std::vector<PlotSeries>& series) {
  html::Table t{
      {"size", "setting", "time us (median)", "p5 us", "p95 us"}, {}, {true, false, true, true, true}};
  for (const auto& s : series)
    for (const auto& p : s.points)
      t.rows.push_back({html::binary_size(p.x), s.name, html::number(p.y, 4), html::number(p.y_low, 4),
                        html::number(p.y_high, 4)});
  return t;
}

std::string latency_figure(const ResultsDocument& doc, const std::string& path, const FigureName& name,
                           const std::vector<const CaseResult*>& cases, const std::string& recommended) {
  const auto series =
      series_of(cases, setting_order(doc, cases), recommended, kLatencyPlotMaxBytes, latency_point);
  if (series.empty()) return "";
  const Extent e = extent_of(series);
  html::LinePlot plot{
      name.words + ": latency of the small sizes",
      "",
      html::fitted_axis(html::Scale::Log2Bytes, e.x_lo, std::max(e.x_hi, e.x_lo * 2), "message size"),
      html::fitted_axis(html::Scale::Log10, e.y_lo, e.y_hi, "time per iteration (us, median)"),
      series,
      {}};
  plot.description = "median time of " + name.words + " up to " + html::binary_size(e.x_hi) +
                     " on log-log axes, shaded: p5-p95; " + std::to_string(series.size()) + " setting(s).";
  return html::render_figure({path + "-" + name.id + "-latency", plot.title, html::render_line_plot(plot),
                              plot.description, latency_table(series)});
}

std::string unmeasured_note(const ResultsDocument& doc) {
  std::size_t failed = 0, wrong = 0;
  for (const auto& c : doc.cases)
    failed += c.measured() ? 0 : 1, wrong += c.status == CaseStatus::WrongData ? 1 : 0;
  std::string note;
  if (failed)
    note += std::to_string(failed) +
            " case(s) did not measure (failed, timed out or skipped) and are not drawn. ";
  if (wrong) note += std::to_string(wrong) + " case(s) produced wrong data (drawn, never recommended). ";
  if (!doc.complete) note += "The sweep was interrupted: the plots hold what finished. ";
  return note.empty() ? "" : "<p class=\"note\">" + html::escape(note) + "</p>\n";
}

}  // namespace

html::Section results_section(const ResultsDocument& doc, const std::string& path,
                              const Recommendation* recommendation) {
  const Placement placement = drawn_placement(doc);
  std::string body = unmeasured_note(doc);
  // One rank moves nothing between ranks: its times are drawn, no bandwidth.
  const bool bandwidth = doc.cases.empty() || measures_bandwidth(doc.cases.front().nranks);
  if (!bandwidth) body += "<p class=\"note\">" + html::escape(one_rank_note(doc.backend)) + "</p>\n";
  std::set<std::pair<Collective, std::string>> seen;  // plots per collective and group spec
  for (const auto& c : doc.cases) {
    if (!seen.insert({c.spec.collective, c.spec.group.name()}).second) continue;
    const auto cases = measured_of(doc, c.spec.collective, c.spec.group, placement);
    if (cases.empty()) continue;
    const std::string recommended = recommended_for(recommendation, c.spec.collective);
    const FigureName name = figure_name(c.spec.collective, c.spec.group);
    if (bandwidth) body += busbw_figure(doc, path, name, cases, recommended);
    body += latency_figure(doc, path, name, cases, recommended);
  }
  return {"results-" + path, "Results: " + path + " (" + std::string(name_of(doc.backend)) + ")", body};
}

}  // namespace commtune
