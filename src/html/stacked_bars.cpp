#include "html/stacked_bars.hpp"

#include <algorithm>

#include "html/escape.hpp"
#include "html/number_text.hpp"

namespace commtune::html {
namespace {

// The category axis: one slot per bar, its label under the slot's middle.
Axis category_axis(const StackedBars& chart) {
  Axis x{Scale::Linear, 0, static_cast<double>(std::max<std::size_t>(chart.bars.size(), 1)), "", {}};
  for (std::size_t i = 0; i < chart.bars.size(); ++i)
    x.categories.push_back({static_cast<double>(i) + 0.5, chart.bars[i].label});
  return x;
}

std::string segments(const Frame& f, const StackedBar& b, std::size_t i) {
  double sum = 0;
  for (const Segment& s : b.segments) sum += s.value;
  const double scale = sum > 0 ? b.total / sum : 0;  // the parts drawn in the total's units
  const double width = (f.px(1) - f.px(0)) * 0.6, x = f.px(static_cast<double>(i) + 0.5) - width / 2;
  std::string out;
  double base = 0;
  for (const Segment& s : b.segments) {
    const double top = base + s.value * scale;
    out += "<rect class=\"segment\" data-bar=\"" + escape(b.label) + "\" data-category=\"" +
           escape(s.category) + "\" x=\"" + coordinate(x) + "\" y=\"" + coordinate(f.py(top)) +
           "\" width=\"" + coordinate(width) + "\" height=\"" +
           coordinate(std::max(f.py(base) - f.py(top), 0.5)) + "\" fill=\"" + s.colour +
           "\" stroke=\"#333333\" stroke-width=\"0.5\"><title>" + escape(s.tooltip) + "</title></rect>";
    base = top;
  }
  if (b.high > b.low) {
    const std::string centre = coordinate(x + width / 2);
    out += "<line class=\"interval\" x1=\"" + centre + "\" y1=\"" + coordinate(f.py(b.low)) + "\" x2=\"" +
           centre + "\" y2=\"" + coordinate(f.py(b.high)) + "\" stroke=\"#222222\" stroke-width=\"1.5\"/>";
  }
  return out;
}

}  // namespace

std::string render_stacked_bars(const StackedBars& chart) {
  double top = 0;
  for (const StackedBar& b : chart.bars) top = std::max({top, b.total, b.high});
  const Frame f =
      frame_for(category_axis(chart), fitted_axis(Scale::Linear, 0, top > 0 ? top : 1, chart.y_label),
                chart.legend.size());
  std::string out = svg_open(f, "stacked-bars", chart.title, chart.description,
                             " data-bars=\"" + std::to_string(chart.bars.size()) + "\"");
  out += axes(f) + "<g class=\"data\">";
  for (std::size_t i = 0; i < chart.bars.size(); ++i) out += segments(f, chart.bars[i], i);
  return out + "</g>" + legend(f, chart.legend) + "</svg>";
}

}  // namespace commtune::html
