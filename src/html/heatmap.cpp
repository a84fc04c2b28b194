#include "html/heatmap.hpp"

#include <algorithm>
#include <limits>

#include "html/escape.hpp"
#include "html/number_text.hpp"
#include "html/palette.hpp"

namespace commtune::html {
namespace {

constexpr double kLabelWidth = 140, kScaleHeight = 40;

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  double at(double v) const { return hi > lo ? (v - lo) / (hi - lo) : 1.0; }
};

Range range_of(const Heatmap& map) {
  Range r;
  for (const auto& row : map.values)
    for (const auto& v : row)
      if (v) r.lo = std::min(r.lo, *v), r.hi = std::max(r.hi, *v);
  return r;
}

// Room above the grid for the column names, written at 45 degrees.
double top_of(const Heatmap& map) {
  std::size_t longest = 0;
  for (const auto& name : map.names) longest = std::max(longest, name.size());
  return 24 + static_cast<double>(std::min<std::size_t>(longest, 24)) * 5;
}

double cell_size(std::size_t n) {
  return std::clamp(560.0 / static_cast<double>(std::max<std::size_t>(n, 1)), 14.0, 72.0);
}

std::string label(double x, double y, const std::string& anchor, const std::string& text,
                  const std::string& extra = "") {
  return "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + escape(text) + "</text>";
}

std::string cell(const Heatmap& map, const Range& r, std::size_t i, std::size_t j, double size) {
  const double top = top_of(map);
  const auto& v = map.values[i][j];
  if (!v) return "";
  const double x = kLabelWidth + static_cast<double>(j) * size, y = top + static_cast<double>(i) * size;
  const double t = r.at(*v);
  std::string out = "<rect class=\"cell\" x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" width=\"" +
                    coordinate(size - 1) + "\" height=\"" + coordinate(size - 1) + "\" fill=\"" +
                    ramp_colour(t) + "\"><title>" +
                    escape(map.names[i] + " - " + map.names[j] + ": " + number(*v, 4) + " " + map.unit) +
                    "</title></rect>";
  if (size >= 30)
    out += label(x + size / 2, y + size / 2 + 4, "middle", number(*v, 3),
                 std::string(" class=\"cell-value\" fill=\"") + (t > 0.6 ? "#000000" : "#FFFFFF") + "\"");
  return out;
}

std::string names(const Heatmap& map, double size) {
  const double top = top_of(map);
  std::string out;
  for (std::size_t i = 0; i < map.names.size(); ++i) {
    const double offset = static_cast<double>(i) * size + size / 2;
    out += label(kLabelWidth - 6, top + offset + 4, "end", map.names[i]);
    const double x = kLabelWidth + offset, y = top - 6;
    out += label(x, y, "start", map.names[i],
                 " transform=\"rotate(-45 " + coordinate(x) + " " + coordinate(y) + ")\"");
  }
  return out;
}

std::string colour_scale(const Range& r, double y, const std::string& unit) {
  std::string out = "<g class=\"colour-scale\">";
  for (int k = 0; k < 20; ++k)
    out += "<rect x=\"" + coordinate(kLabelWidth + k * 12.0) + "\" y=\"" + coordinate(y) +
           "\" width=\"12\" height=\"10\" fill=\"" + ramp_colour(k / 19.0) + "\"/>";
  if (r.hi >= r.lo) {
    out += label(kLabelWidth, y + 24, "start", number(r.lo, 3) + " " + unit);
    out += label(kLabelWidth + 240, y + 24, "end", number(r.hi, 3) + " " + unit);
  }
  return out + "</g>";
}

}  // namespace

std::string render_heatmap(const Heatmap& map) {
  const std::size_t n = map.names.size();
  const double size = cell_size(n), grid = size * static_cast<double>(n);
  const double top = top_of(map);
  const double width = std::max(kLabelWidth + grid + 20, 420.0), height = top + grid + 16 + kScaleHeight;
  const Range r = range_of(map);
  std::size_t cells = 0;
  std::string body;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n && i < map.values.size() && j < map.values[i].size(); ++j) {
      const std::string c = cell(map, r, i, j, size);
      cells += c.empty() ? 0 : 1;
      body += c;
    }
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot heatmap\" viewBox=\"0 0 " +
         coordinate(width) + " " + coordinate(height) + "\" width=\"" + coordinate(width) + "\" height=\"" +
         coordinate(height) + "\" role=\"img\" data-cells=\"" + std::to_string(cells) + "\"><title>" +
         escape(map.title) + "</title><desc>" + escape(map.description) + "</desc>" + names(map, size) +
         "<g class=\"data\">" + body + "</g>" + colour_scale(r, top + grid + 12, map.unit) + "</svg>";
}

}  // namespace commtune::html
