#include "html/line_plot.hpp"

#include <algorithm>

#include "html/escape.hpp"
#include "html/number_text.hpp"
#include "html/palette.hpp"
#include "html/plot_frame.hpp"

namespace commtune::html {
namespace {

std::string point_text(const Frame& f, double x, double y) {
  return coordinate(f.px(x)) + "," + coordinate(f.py(y));
}

bool has_band(const PlotPoint& p) { return p.y_high > p.y_low; }

// The band as one polygon: along the highs, back along the lows.
std::string band(const Frame& f, const PlotSeries& s, const std::string& colour) {
  if (std::none_of(s.points.begin(), s.points.end(), has_band)) return "";
  std::string points;
  for (const auto& p : s.points) points += point_text(f, p.x, has_band(p) ? p.y_high : p.y) + " ";
  for (auto it = s.points.rbegin(); it != s.points.rend(); ++it)
    points += point_text(f, it->x, has_band(*it) ? it->y_low : it->y) + " ";
  points.pop_back();
  return "<polygon class=\"band\" points=\"" + points + "\" fill=\"" + colour +
         "\" fill-opacity=\"0.15\" stroke=\"none\"/>";
}

std::string polyline(const Frame& f, const PlotSeries& s, std::size_t index) {
  std::string points;
  for (const auto& p : s.points) {
    if (!points.empty()) points += ' ';
    points += point_text(f, p.x, p.y);
  }
  const std::string dash = series_dash(index);
  return "<polyline class=\"line\" points=\"" + points + "\" fill=\"none\" stroke=\"" + series_colour(index) +
         "\" stroke-width=\"" + (s.emphasised ? "3.5" : "1.5") + "\"" +
         (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") + "/>";
}

std::string markers(const Frame& f, const PlotSeries& s, std::size_t index) {
  std::string out;
  for (const auto& p : s.points)
    out += "<circle class=\"marker\" cx=\"" + coordinate(f.px(p.x)) + "\" cy=\"" + coordinate(f.py(p.y)) +
           "\" r=\"" + (s.emphasised ? "3" : "2") + "\" fill=\"" + series_colour(index) + "\"><title>" +
           escape(s.name) + ": " + escape(number(p.y, 4)) + "</title></circle>";
  return out;
}

std::string series_group(const Frame& f, const LinePlot& plot, std::size_t index) {
  const PlotSeries& s = plot.series[index];
  const std::string css_class = s.emphasised ? "series emphasised" : "series";
  return "<g class=\"" + css_class + "\" data-name=\"" + escape(s.name) + "\" data-points=\"" +
         std::to_string(s.points.size()) + "\">" + (plot.bands ? band(f, s, series_colour(index)) : "") +
         polyline(f, s, index) + markers(f, s, index) + "</g>";
}

// A reference above the y axis's range is named at the top of the plot instead of drawn, so that
// the data keep the plot's height.
std::string reference(const Frame& f, const ReferenceLine& r) {
  const double x2 = f.left + f.plot_width();
  if (r.y > f.y.hi)
    return "<g class=\"reference off-scale\"><text x=\"" + coordinate(x2 - 4) + "\" y=\"" +
           coordinate(f.top + 14) + "\" text-anchor=\"end\">" +
           escape("\u2191 " + r.label + " (above the plot)") + "</text></g>";
  const double y = f.py(r.y);
  return "<g class=\"reference\"><line x1=\"" + coordinate(f.left) + "\" y1=\"" + coordinate(y) + "\" x2=\"" +
         coordinate(x2) + "\" y2=\"" + coordinate(y) +
         "\" stroke=\"#333333\" stroke-width=\"1.5\" stroke-dasharray=\"10 4\"/>"
         "<text x=\"" +
         coordinate(x2 - 4) + "\" y=\"" + coordinate(y - 5) + "\" text-anchor=\"end\">" + escape(r.label) +
         "</text></g>";
}

std::vector<LegendEntry> legend_entries(const LinePlot& plot) {
  std::vector<LegendEntry> entries;
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& s = plot.series[i];
    entries.push_back(
        {s.name + (s.note.empty() ? "" : " " + s.note), series_colour(i), series_dash(i), s.emphasised});
  }
  return entries;
}

}  // namespace

std::string render_line_plot(const LinePlot& plot) {
  const Frame f = frame_for(plot.x, plot.y, plot.series.size());
  std::string out = svg_open(f, "line-plot", plot.title, plot.description,
                             " data-series=\"" + std::to_string(plot.series.size()) + "\"");
  out += axes(f);
  out += "<g class=\"data\">";
  for (std::size_t i = 0; i < plot.series.size(); ++i) out += series_group(f, plot, i);
  for (const auto& r : plot.references) out += reference(f, r);
  out += "</g>" + legend(f, legend_entries(plot)) + "</svg>";
  return out;
}

}  // namespace commtune::html
