#pragma once
// Findings from measurements, noise-aware like the tuner: nothing is named without evidence
// beyond the noise. The margin a difference must clear is max(kMinMargin, the map's own noise:
// the median over entries of (p95 - p5) / median of their samples).
#include <optional>
#include <utility>
#include <vector>

#include "ceiling/ceiling.hpp"
#include "doctor/finding.hpp"
#include "pairwise/pair_matrix.hpp"

namespace commtune {

inline constexpr double kMinMargin = 0.2;

double map_noise(const PairMatrix& m);

// Slow node: every link of one member is slower, beyond the margin, than every link that does not
// touch it (needs 3 or more members: with 2 there is nothing to tell them apart).
std::vector<Finding> find_slow_nodes(const PairMatrix& m);
// Bad pair: one pair's link slower, beyond the margin, than every other link of both its ends,
// whose other links are fine (so not a slow node).
std::vector<Finding> find_bad_pairs(const PairMatrix& m);
struct BadPair {
  int i = 0, j = 0;           // its members, i < j
  double pair = 0, rest = 0;  // its faster direction's GB/s; the slowest other link of either end
};
std::vector<BadPair> bad_pairs(const PairMatrix& m);  // the pairs find_bad_pairs names, in its order
Finding bad_pair_finding(const PairMatrix& m, const BadPair& p);
// The members (lower, higher) of each pair find_bad_pairs names, in its order.
std::vector<std::pair<int, int>> bad_pair_members(const PairMatrix& m);
// Links far below the ceiling: under half of it (warning where a published range exists, else
// information).
std::vector<Finding> find_links_below_ceiling(const PairMatrix& m, const std::optional<Ceiling>& ceiling);

}  // namespace commtune
