#pragma once
// The case order of each run of a repeated sweep (--repeat N): run r starts r/N of the way into
// the plan's case order and wraps around, so that drift over the runs (a machine warming up, a
// neighbour's job starting) does not always fall on the same cases. Rotation points are
// (setting, collective, size) boundaries: a size's placements stay together, for the table.
#include <cstddef>

#include "plan/plan.hpp"

namespace commtune {

// The plan with its cases in run `run`'s order (0 <= run < runs); run 0 is the plan as made.
Plan rotated_plan(const Plan& plan, std::size_t run, std::size_t runs);

}  // namespace commtune
