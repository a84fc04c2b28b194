#pragma once
// One plot as the page shows it: a heading, the SVG, its text alternative in words, and its
// numbers in a table collapsed by default (<details>), all in a <figure class="plot-figure">.
#include <string>

#include "html/table.hpp"

namespace commtune::html {

struct Figure {
  std::string id;  // the element id (letters, digits, '-'); made safe here
  std::string title;
  std::string svg;          // a rendered plot
  std::string description;  // the text alternative: what the plot shows, in words
  Table numbers;
};

std::string render_figure(const Figure& figure);

// `text` reduced to what an id may hold: lower-case letters, digits and '-'.
std::string element_id(const std::string& text);

}  // namespace commtune::html
