#pragma once
// One bar per category (a replay's settings), stacked from segments (each call's share of the
// step), with an interval whisker on the bar's total (the step's median interval). Each segment is
// a <rect class="segment" data-bar="..." data-category="...">, each total a <line class="interval">.
#include <string>
#include <vector>

#include "html/plot_frame.hpp"

namespace commtune::html {

struct Segment {
  double value = 0;
  std::string colour;
  std::string category;  // data-category: which part (a call)
  std::string tooltip;
};

struct StackedBar {
  std::string label;              // under the bar
  std::vector<Segment> segments;  // bottom up
  double total = 0;               // the bar's height (its segments are scaled to it)
  double low = 0, high = 0;       // the interval of the total; equal for none
};

struct StackedBars {
  std::string title;
  std::string description;  // the text alternative
  std::string y_label;
  std::vector<StackedBar> bars;
  std::vector<LegendEntry> legend;
};

std::string render_stacked_bars(const StackedBars& chart);

}  // namespace commtune::html
