#pragma once
// One row per collective, checked when the table is compiled: every table keyed by `Collective`
// is a std::array of kCollectiveCount rows in enum order, and `static_assert(covers_every_collective(
// table))` next to it makes a missing, extra or misplaced row a build error. `row_of` then indexes
// the table directly: there is no first-row fallback for a collective that has no row.
#include <array>
#include <cstddef>

#include "core/types.hpp"

namespace commtune {

constexpr std::size_t index_of(Collective c) { return static_cast<std::size_t>(c); }

// True when row i describes the i-th collective, for every collective and no other.
template <typename Row, std::size_t N>
constexpr bool covers_every_collective(const std::array<Row, N>& rows) {
  if (N != kCollectiveCount) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (index_of(rows[i].collective) != i) return false;
  return true;
}

template <typename Row>
constexpr const Row& row_of(const std::array<Row, kCollectiveCount>& rows, Collective c) {
  return rows[index_of(c)];
}

}  // namespace commtune
