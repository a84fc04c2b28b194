#include "html/figure.hpp"

#include "html/escape.hpp"

namespace commtune::html {

std::string element_id(const std::string& text) {
  std::string id;
  for (const char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep)
      id += c;
    else if (c >= 'A' && c <= 'Z')
      id += static_cast<char>(c - 'A' + 'a');
    else if (!id.empty() && id.back() != '-')
      id += '-';
  }
  while (!id.empty() && id.back() == '-') id.pop_back();
  return id.empty() ? "x" : id;
}

std::string render_figure(const Figure& f) {
  const std::string id = element_id(f.id);
  return "<figure class=\"plot-figure\" id=\"" + id + "\"><h3>" + escape(f.title) + "</h3>" + f.svg +
         "<figcaption><p class=\"alt\" id=\"" + id + "-alt\">" + escape(f.description) +
         "</p><details><summary>Numbers (" + std::to_string(f.numbers.rows.size()) + " rows)</summary>" +
         render_table(f.numbers) + "</details></figcaption></figure>\n";
}

}  // namespace commtune::html
