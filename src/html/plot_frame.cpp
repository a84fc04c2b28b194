#include "html/plot_frame.hpp"

#include "html/escape.hpp"
#include "html/number_text.hpp"

namespace commtune::html {
namespace {

constexpr double kLegendRowHeight = 18;

std::string line(double x1, double y1, double x2, double y2, const std::string& css_class) {
  return "<line class=\"" + css_class + "\" x1=\"" + coordinate(x1) + "\" y1=\"" + coordinate(y1) +
         "\" x2=\"" + coordinate(x2) + "\" y2=\"" + coordinate(y2) + "\"/>";
}

std::string text_at(double x, double y, const std::string& anchor, const std::string& text,
                    const std::string& extra = "") {
  return "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + escape(text) + "</text>";
}

std::string x_ticks(const Frame& f) {
  std::string out;
  const double base = f.top + f.plot_height;
  for (const Tick& t : f.x.ticks(f.x.scale == Scale::Log2Bytes ? 12 : 8)) {
    const double x = f.px(t.value);
    out += "<g class=\"tick x\">" + line(x, f.top, x, base, "grid") +
           line(x, base, x, base + 5, "tick-mark") + text_at(x, base + 18, "middle", t.label) + "</g>";
  }
  return out;
}

std::string y_ticks(const Frame& f) {
  std::string out;
  for (const Tick& t : f.y.ticks(7)) {
    const double y = f.py(t.value);
    out += "<g class=\"tick y\">" + line(f.left, y, f.left + f.plot_width(), y, "grid") +
           line(f.left - 5, y, f.left, y, "tick-mark") + text_at(f.left - 8, y + 4, "end", t.label) + "</g>";
  }
  return out;
}

}  // namespace

double Frame::px(double x_value) const { return left + x.fraction(x_value) * plot_width(); }

double Frame::py(double y_value) const { return top + (1 - y.fraction(y_value)) * plot_height; }

double Frame::height() const {
  return top + plot_height + bottom + static_cast<double>(legend_rows) * kLegendRowHeight;
}

Frame frame_for(Axis x, Axis y, std::size_t legend_entries) {
  Frame f{std::move(x), std::move(y)};
  f.legend_rows = (legend_entries + kLegendColumns - 1) / kLegendColumns;
  return f;
}

std::string svg_open(const Frame& f, const std::string& css_class, const std::string& title,
                     const std::string& description, const std::string& data_attributes) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot " + css_class + "\" viewBox=\"0 0 " +
         coordinate(f.width) + " " + coordinate(f.height()) + "\" width=\"" + coordinate(f.width) +
         "\" height=\"" + coordinate(f.height()) + "\" role=\"img\"" + data_attributes + "><title>" +
         escape(title) + "</title><desc>" + escape(description) + "</desc>";
}

std::string axes(const Frame& f) {
  const double base = f.top + f.plot_height;
  std::string out = "<g class=\"axes\">" + x_ticks(f) + y_ticks(f);
  out += "<rect class=\"plot-area\" x=\"" + coordinate(f.left) + "\" y=\"" + coordinate(f.top) +
         "\" width=\"" + coordinate(f.plot_width()) + "\" height=\"" + coordinate(f.plot_height) + "\"/>";
  out += text_at(f.left + f.plot_width() / 2, base + 38, "middle", f.x.label, " class=\"axis-title\"");
  const double mid = f.top + f.plot_height / 2;
  out += text_at(16, mid, "middle", f.y.label,
                 " class=\"axis-title\" transform=\"rotate(-90 16 " + coordinate(mid) + ")\"");
  return out + "</g>";
}

std::string legend(const Frame& f, const std::vector<LegendEntry>& entries) {
  std::string out = "<g class=\"legend\">";
  const double column = f.plot_width() / static_cast<double>(kLegendColumns);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double x = f.left + static_cast<double>(i % kLegendColumns) * column;
    const double y =
        f.top + f.plot_height + f.bottom + static_cast<double>(i / kLegendColumns) * kLegendRowHeight;
    const LegendEntry& e = entries[i];
    if (e.swatch) {
      out += "<g class=\"legend-entry\"><rect x=\"" + coordinate(x + 6) + "\" y=\"" + coordinate(y - 6) +
             "\" width=\"12\" height=\"12\" fill=\"" + e.colour +
             "\" stroke=\"#333333\" stroke-width=\"0.5\"/>" + text_at(x + 30, y + 4, "start", e.name) +
             "</g>";
      continue;
    }
    out += "<g class=\"legend-entry\"><line x1=\"" + coordinate(x) + "\" y1=\"" + coordinate(y) + "\" x2=\"" +
           coordinate(x + 24) + "\" y2=\"" + coordinate(y) + "\" stroke=\"" + e.colour +
           "\" stroke-width=\"" + (e.emphasised ? "3.5" : "1.5") + "\"" +
           (e.dash.empty() ? "" : " stroke-dasharray=\"" + e.dash + "\"") + "/>" +
           text_at(x + 30, y + 4, "start", e.name, e.emphasised ? " font-weight=\"bold\"" : "") + "</g>";
  }
  return out + "</g>";
}

}  // namespace commtune::html
