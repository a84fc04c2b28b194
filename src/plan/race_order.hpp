#pragma once
// The order of a racing round's cases. Side by side (when the backend keeps every setting of the
// round open): size by size, each size's settings one after another, so that the settings a size
// compares are measured seconds apart at most, not a whole setting's sweep apart: a machine
// whose speed drifts over minutes (load, clocks, a neighbour's job) then shifts them alike.
// Otherwise setting by setting, as a sweep is, each setting starting once. Either way the
// settings come in the plan's order in even rounds and in the opposite order in odd ones (the
// settings a session cache kept last are the first used again). Pure: no backend, no clock.
#include <cstddef>
#include <vector>

#include "plan/plan.hpp"

namespace commtune {

// Whether a round of these cases may run side by side: more than one setting, and no more
// settings than `kept_open` (the backend's CostModel::sessions_kept).
bool side_by_side_fits(const std::vector<Case>& cases, std::size_t kept_open);

// Orders round `round`'s (0-based) cases in place; the placements of a size and setting keep
// their order.
void order_round(std::vector<Case>& cases, std::size_t round, bool side_by_side);

}  // namespace commtune
