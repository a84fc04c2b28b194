#pragma once
// The re-measure of suspect pairs, each alone. In a map's round several pairs exchange at once, and
// the same pairs meet again in a second map: a pair that loses a shared route, switch uplink or CPU
// to the pair beside it looks slow in both. Measured alone (one pair per round, every other member
// waiting), a bad cable, port or route stays slow; contention does not. Each suspect pair (i, j) is
// measured with, for reference, each of its ends against one third member k: the one whose slowest
// link to i and j was fastest in the map (so a slow third member does not hide the pair).
#include <utility>
#include <vector>

#include "pairwise/pair_matrix.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {

// Rounds of one pair each, (lower, higher): (i, j), (i, k), (j, k) for every suspect pair, each
// pair once. None for a map of fewer than 3 members.
std::vector<Round> alone_rounds(const PairMatrix& map, const std::vector<std::pair<int, int>>& suspects);

}  // namespace commtune
