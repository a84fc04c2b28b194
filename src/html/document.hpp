#pragma once
// The whole report page: one self-contained HTML file (inline CSS, a four-line inline script that
// opens the number tables for printing, no network: a Content-Security-Policy forbids every
// fetch), its title, the provenance block at the top, then the sections in order.
#include <string>
#include <vector>

namespace commtune::html {

struct Section {
  std::string id;  // made safe with element_id
  std::string title;
  std::string body;  // rendered HTML (figures, tables, paragraphs)
};

struct Document {
  std::string title;
  std::string generator;   // "commtune 0.1.0"
  std::string provenance;  // rendered HTML shown first
  std::vector<Section> sections;
};

std::string render_document(const Document& doc);

}  // namespace commtune::html
