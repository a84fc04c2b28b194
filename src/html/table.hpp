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

}  // namespace commtune::html
