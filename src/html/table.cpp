#include "html/table.hpp"

#include <algorithm>
#include <cstddef>

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

void drop_empty_columns(Table& t) {
  for (std::size_t c = t.headers.size(); c-- > 1;) {
    const bool empty = std::all_of(t.rows.begin(), t.rows.end(),
                                   [&](const auto& row) { return c >= row.size() || row[c].empty(); });
    if (!empty) continue;
    t.headers.erase(t.headers.begin() + static_cast<std::ptrdiff_t>(c));
    for (auto& row : t.rows)
      if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
    if (c < t.numeric.size()) t.numeric.erase(t.numeric.begin() + static_cast<std::ptrdiff_t>(c));
  }
}

std::string render_collapsed_table(const Table& t, const std::string& css_class, std::size_t shown,
                                   const std::string& noun) {
  if (t.rows.size() <= shown) return render_table(t, css_class);
  Table first{t.headers, {t.rows.begin(), t.rows.begin() + static_cast<std::ptrdiff_t>(shown)}, t.numeric};
  Table rest{t.headers, {t.rows.begin() + static_cast<std::ptrdiff_t>(shown), t.rows.end()}, t.numeric};
  return render_table(first, css_class) + "<details><summary>" + std::to_string(rest.rows.size()) + " more " +
         escape(noun) + "</summary>" + render_table(rest, css_class) + "</details>";
}

}  // namespace commtune::html
