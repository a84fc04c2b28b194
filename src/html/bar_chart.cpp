#include "html/bar_chart.hpp"

#include <algorithm>
#include <cmath>

#include "html/escape.hpp"
#include "html/number_text.hpp"

namespace commtune::html {
namespace {

// The width of one size's group: the distance between neighbouring powers of two, less a gap.
double group_width(const Frame& f) {
  const double step = f.px(f.x.lo * 2) - f.px(f.x.lo);
  return std::clamp(step * 0.8, 4.0, 48.0);
}

std::string whisker(const Frame& f, const Bar& b, double centre) {
  if (!(b.high > b.low)) return "";
  const std::string x = coordinate(centre);
  return "<line class=\"interval\" x1=\"" + x + "\" y1=\"" + coordinate(f.py(b.low)) + "\" x2=\"" + x +
         "\" y2=\"" + coordinate(f.py(b.high)) + "\" stroke=\"#222222\" stroke-width=\"1\"/>";
}

std::string bar(const Frame& f, const BarChart& chart, const Bar& b) {
  const double group = group_width(f),
               width = group / static_cast<double>(std::max<std::size_t>(chart.slots, 1));
  const double x = f.px(b.x) - group / 2 + static_cast<double>(b.slot) * width;
  const double y0 = f.py(0), y1 = f.py(b.value);
  // A zero bar (the default stays, no change) is a 4 px mark across the zero line, so it is seen.
  const double height = b.value == 0 ? 4 : std::max(std::fabs(y1 - y0), 1.0);
  const double top = b.value == 0 ? y0 - 2 : std::min(y0, y1);
  return "<rect class=\"bar\" data-category=\"" + escape(b.category) + "\" x=\"" + coordinate(x) + "\" y=\"" +
         coordinate(top) + "\" width=\"" + coordinate(std::max(width - 1, 1.0)) + "\" height=\"" +
         coordinate(height) + "\" fill=\"" + b.colour + "\" stroke=\"#333333\" stroke-width=\"0.5\"" +
         (b.faint ? " fill-opacity=\"0.35\" stroke-dasharray=\"3 2\"" : "") + "><title>" + escape(b.tooltip) +
         "</title></rect>" + whisker(f, b, x + width / 2);
}

std::string zero_line(const Frame& f) {
  const std::string y = coordinate(f.py(0));
  return "<line class=\"zero\" x1=\"" + coordinate(f.left) + "\" y1=\"" + y + "\" x2=\"" +
         coordinate(f.left + f.plot_width()) + "\" y2=\"" + y + "\" stroke=\"#000000\" stroke-width=\"1\"/>";
}

}  // namespace

std::string render_bar_chart(const BarChart& chart) {
  const Frame f = frame_for(chart.x, chart.y, chart.legend.size());
  std::string out = svg_open(f, "bar-chart", chart.title, chart.description,
                             " data-bars=\"" + std::to_string(chart.bars.size()) + "\"");
  out += axes(f) + "<g class=\"data\">";
  for (const auto& b : chart.bars) out += bar(f, chart, b);
  out += zero_line(f) + "</g>" + legend(f, chart.legend) + "</svg>";
  return out;
}

}  // namespace commtune::html
