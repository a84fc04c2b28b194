#pragma once
// A table of labelled facts (the report's provenance): one row per fact, its label as text and its
// value as HTML made by the renderers of this folder (text_lines, preformatted, render_table,
// render_collapsed_table), so that a value can be a few lines or a small table of its own.
#include <string>
#include <vector>

namespace commtune::html {

struct FactRow {
  std::string label;       // text, escaped when rendered
  std::string value_html;  // already safe: made by the functions below or render_table
};

std::string render_fact_table(const std::vector<FactRow>& rows, const std::string& label_header,
                              const std::string& value_header, const std::string& css_class);

// Lines of text, each escaped, one under the other.
std::string text_lines(const std::vector<std::string>& lines);

// Text as a program printed it (a matrix, a banner): escaped, spacing and line breaks kept.
std::string preformatted(const std::string& text);

// HTML behind a closed "<details><summary>SUMMARY</summary>" (the summary text escaped here).
std::string folded(const std::string& summary, const std::string& body_html);

}  // namespace commtune::html
