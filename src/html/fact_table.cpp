#include "html/fact_table.hpp"

#include "html/escape.hpp"

namespace commtune::html {

std::string render_fact_table(const std::vector<FactRow>& rows, const std::string& label_header,
                              const std::string& value_header, const std::string& css_class) {
  std::string out = "<table class=\"" + escape(css_class) + "\"><thead><tr><th>" + escape(label_header) +
                    "</th><th>" + escape(value_header) + "</th></tr></thead><tbody>";
  for (const auto& row : rows)
    out += "<tr><td>" + escape(row.label) + "</td><td>" + row.value_html + "</td></tr>";
  return out + "</tbody></table>";
}

std::string text_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += (out.empty() ? "" : "<br>") + escape(line);
  return out;
}

std::string preformatted(const std::string& text) { return "<pre>" + escape(text) + "</pre>"; }

std::string folded(const std::string& summary, const std::string& body_html) {
  return "<details><summary>" + escape(summary) + "</summary>" + body_html + "</details>";
}

}  // namespace commtune::html
