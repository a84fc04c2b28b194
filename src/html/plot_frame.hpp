#pragma once
// The frame every x-y plot shares: the SVG canvas and its plot area, where data values land in
// pixels, the grid, the ticks with their labels, the axis titles, and a legend under the plot.
#include <string>
#include <vector>

#include "html/axis.hpp"

namespace commtune::html {

struct LegendEntry {
  std::string name;
  std::string colour;
  std::string dash;         // stroke-dasharray, "" for solid
  bool emphasised = false;  // drawn thicker
  bool swatch = false;      // a filled square (bars) instead of a line
};

struct Frame {
  Axis x, y;
  double width = 760, plot_height = 300;
  double left = 72, right = 24, top = 16, bottom = 48;
  std::size_t legend_rows = 0;  // set by frame_for()

  double px(double x_value) const;  // pixel x of a data x
  double py(double y_value) const;  // pixel y of a data y
  double plot_width() const { return width - left - right; }
  double height() const;  // the whole canvas, legend included
};

inline constexpr std::size_t kLegendColumns = 3;

Frame frame_for(Axis x, Axis y, std::size_t legend_entries);

// "<svg ...>" opening tag with the class, the accessible title and description ids, and
// data-* attributes given as ' data-series="3"' text.
std::string svg_open(const Frame& f, const std::string& css_class, const std::string& title,
                     const std::string& description, const std::string& data_attributes);
// The grid, the ticks (class "tick x" / "tick y", the label as text) and the axis titles.
std::string axes(const Frame& f);
// The legend under the plot area, kLegendColumns entries a row.
std::string legend(const Frame& f, const std::vector<LegendEntry>& entries);

}  // namespace commtune::html
