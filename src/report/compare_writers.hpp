#pragma once
// Renderings of a CompareReport for CI: markdown (provenance differences first, then a table of
// every case with both medians and CIs, the change and the verdict) and JSON.
#include <ostream>

#include "tune/regression_compare.hpp"

namespace commtune {

void write_compare_markdown(const CompareReport& report, std::ostream& out);
void write_compare_json(const CompareReport& report, std::ostream& out);

}  // namespace commtune
