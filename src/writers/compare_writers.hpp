#pragma once
// Renderings of a CompareReport for CI: markdown (provenance differences first, the rule and the
// runs behind it, then a table of every case with both sides' run figures, the change with its
// interval and the verdict, the SLOWER size ranges) and JSON; and the one summary line a CI reads.
#include <ostream>
#include <string>

#include "tune/regression_compare.hpp"

namespace commtune {

void write_compare_markdown(const CompareReport& report, std::ostream& out);
void write_compare_json(const CompareReport& report, std::ostream& out);

// "commtune compare: REGRESSION: 3 case(s) SLOWER in default allreduce 1 MiB..4 MiB; worst ...;
// 0 faster, 7 same, 0 ambiguous (threshold 5%, runs 3 vs 3)", or "... no case SLOWER; ...".
std::string compare_summary_line(const CompareReport& report);

}  // namespace commtune
