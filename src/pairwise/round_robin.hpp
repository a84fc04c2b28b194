#pragma once
// The round-robin (circle) schedule: every pair of n members meets exactly once, in rounds of
// disjoint pairs, so a round's transfers run concurrently without sharing an endpoint. n - 1
// rounds for even n; n rounds for odd n (one member sits each round out).
#include <utility>
#include <vector>

namespace commtune {

using Round = std::vector<std::pair<int, int>>;  // (lower, higher) member indices

std::vector<Round> round_robin_rounds(int n);

}  // namespace commtune
