#pragma once
// A plain HTML table: the numbers under a plot, the findings, the provenance. Cells are text
// (escaped here); columns named in `numeric` are right-aligned.
#include <string>
#include <vector>

namespace commtune::html {

struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;  // per column; missing: text
};

std::string render_table(const Table& table, const std::string& css_class = "numbers");

// Removes the columns after the first whose cells are empty in every row (facts no row has).
void drop_empty_columns(Table& table);

// The first `shown` rows as a table; the others, when there are any, in a second table behind
// "<details><summary>N more NOUN</summary>" (opened for printing), so that a long list stays short.
std::string render_collapsed_table(const Table& table, const std::string& css_class, std::size_t shown,
                                   const std::string& noun);

}  // namespace commtune::html
