#pragma once
// Bars over a log2 size axis, up or down from zero: the tuner's gain per size (coloured by the
// winning setting, faint where not confirmed) and compare's change per case (coloured by
// verdict). Several bars at one size sit side by side (`slot` of `slots`); an optional interval
// is drawn as a whisker. Each bar is a <rect class="bar" data-category="...">.
#include <string>
#include <vector>

#include "html/axis.hpp"
#include "html/plot_frame.hpp"

namespace commtune::html {

struct Bar {
  double x = 0;              // the size, in bytes
  std::size_t slot = 0;      // 0 .. slots-1
  double value = 0;          // in y-axis units
  double low = 0, high = 0;  // the interval; equal for none
  std::string colour;
  bool faint = false;    // drawn half transparent with a dashed outline
  std::string category;  // data-category: the verdict, the winner
  std::string tooltip;
};

struct BarChart {
  std::string title;
  std::string description;  // the text alternative
  Axis x, y;
  std::size_t slots = 1;
  std::vector<Bar> bars;
  std::vector<LegendEntry> legend;
};

std::string render_bar_chart(const BarChart& chart);

}  // namespace commtune::html
