#pragma once
// A square matrix as a heatmap: row and column names, one cell per pair with its value printed in
// it, coloured on the sequential ramp from the smallest to the largest value (higher is
// brighter), missing values (the diagonal) left blank. Each cell is a <rect class="cell">.
#include <optional>
#include <string>
#include <vector>

namespace commtune::html {

struct Heatmap {
  std::string title;
  std::string description;                                 // the text alternative
  std::vector<std::string> names;                          // rows and columns
  std::vector<std::vector<std::optional<double>>> values;  // [row][column]
  std::string unit;                                        // "GB/s"
};

std::string render_heatmap(const Heatmap& map);

}  // namespace commtune::html
