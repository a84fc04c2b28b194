#include "html/table.hpp"

#include "html/escape.hpp"

namespace commtune::html {
namespace {

std::string cell(const char* tag, const Table& t, std::size_t column, const std::string& text) {
  const bool right = column < t.numeric.size() && t.numeric[column];
  return std::string("<") + tag + (right ? " class=\"num\"" : "") + ">" + escape(text) + "</" + tag + ">";
}

}  // namespace

std::string render_table(const Table& t, const std::string& css_class) {
  std::string out = "<table class=\"" + escape(css_class) + "\"><thead><tr>";
  for (std::size_t c = 0; c < t.headers.size(); ++c) out += cell("th", t, c, t.headers[c]);
  out += "</tr></thead><tbody>";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) out += cell("td", t, c, row[c]);
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

}  // namespace commtune::html
