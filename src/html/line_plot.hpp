#pragma once
// A line plot: one polyline per series with markers, an optional band per point (p5-p95), some
// series emphasised (drawn thicker: the default and the recommended setting), and optional
// horizontal reference lines (the link ceiling) with their label. Each series is a
// <g class="series" data-name="..."> so that tests and readers can find it.
#include <string>
#include <vector>

#include "html/axis.hpp"

namespace commtune::html {

struct PlotPoint {
  double x = 0, y = 0;
  double y_low = 0, y_high = 0;  // the band; equal to y (or both 0) for none
};

struct PlotSeries {
  std::string name;
  std::vector<PlotPoint> points;  // in x order
  bool emphasised = false;
  std::string note;  // added to the legend: "(default)", "(recommended)"
};

struct ReferenceLine {
  double y = 0;
  std::string label;  // drawn above the line, at the right end; above the y range: named at the top
};

struct LinePlot {
  std::string title;
  std::string description;  // the text alternative
  Axis x, y;
  std::vector<PlotSeries> series;
  std::vector<ReferenceLine> references;
  bool bands = true;
};

std::string render_line_plot(const LinePlot& plot);

}  // namespace commtune::html
