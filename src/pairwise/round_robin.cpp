#include "pairwise/round_robin.hpp"

#include <algorithm>

namespace commtune {

std::vector<Round> round_robin_rounds(int n) {
  if (n < 2) return {};
  const int slots = n % 2 == 0 ? n : n + 1;  // an odd count gets a bye: slot n pairs with nobody
  std::vector<int> circle(static_cast<std::size_t>(slots));
  for (int i = 0; i < slots; ++i) circle[static_cast<std::size_t>(i)] = i;
  std::vector<Round> rounds;
  for (int r = 0; r < slots - 1; ++r) {
    Round round;
    for (int i = 0; i < slots / 2; ++i) {
      const int a = circle[static_cast<std::size_t>(i)], b = circle[static_cast<std::size_t>(slots - 1 - i)];
      if (a < n && b < n) round.emplace_back(std::min(a, b), std::max(a, b));
    }
    rounds.push_back(round);
    std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());  // slot 0 stays, the rest turn
  }
  return rounds;
}

}  // namespace commtune
