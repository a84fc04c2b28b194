#include "doctor/alone_rounds.hpp"

#include <algorithm>
#include <set>

namespace commtune {
namespace {

// The slower median of the two directions between a and b; 0 where either was not measured.
double slower_direction(const PairMatrix& m, int a, int b) {
  const auto both = link_medians(m, a, b);
  return both ? std::min(both->first, both->second) : 0;
}

// The third member whose slowest link to i and j is fastest.
int best_third(const PairMatrix& m, int i, int j) {
  int best = -1;
  double best_rate = -1;
  for (int k = 0; k < m.size(); ++k) {
    if (k == i || k == j) continue;
    const double rate = std::min(slower_direction(m, i, k), slower_direction(m, j, k));
    if (rate > best_rate) best = k, best_rate = rate;
  }
  return best;
}

std::pair<int, int> ordered(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

}  // namespace

std::vector<Round> alone_rounds(const PairMatrix& map, const std::vector<std::pair<int, int>>& suspects) {
  if (map.size() < 3) return {};
  std::vector<Round> rounds;
  std::set<std::pair<int, int>> planned;
  const auto add = [&](int a, int b) {
    if (planned.insert(ordered(a, b)).second) rounds.push_back(Round{ordered(a, b)});
  };
  for (const auto& [i, j] : suspects) {
    const int k = best_third(map, i, j);
    add(i, j);
    add(i, k);
    add(j, k);
  }
  return rounds;
}

}  // namespace commtune
