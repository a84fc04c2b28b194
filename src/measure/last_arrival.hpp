#pragma once
// Which rank arrived last at a collective, and by how much, without a common clock: the ranks of a
// synchronising collective leave it nearly together, so each rank's seconds inside the call differ
// by how late it came in. The rank with the least time inside arrived last; its lag is how much
// less time it spent inside than the next-to-last (how long it alone held the others up). Clock
// offsets between nodes cancel: every figure is a difference of two readings of one rank's clock.
//
// An algorithm's own exit order is not a late arrival: in a case, some ranks always leave a little
// earlier (the first ranks of a node, the end of a ring) and would look late every time. So each
// rank's time inside is first taken relative to its own median over the case: what is left is the
// variation of its arrival, and a constant offset (which no clock-free method can tell from the
// algorithm's) is never called late.
#include <cstdint>
#include <span>
#include <vector>

namespace commtune {

struct LastArrival {
  int rank = 0;
  double lag_s = 0;
};

// From each rank's seconds inside one iteration (index = rank); needs 2 or more ranks.
LastArrival last_arrival(std::span<const double> inside_s);

// Every iteration's last arrival from each rank's seconds inside, iteration-major
// (inside_s[i * nranks + r]), each rank taken relative to its own median over the iterations.
std::vector<LastArrival> last_arrivals(const std::vector<double>& inside_s, int nranks);

// The tail: iterations whose lag lies above this quantile of the case's lags.
inline constexpr double kArrivalTailQuantile = 0.9;

// A case's arrivals, per rank (index = rank).
struct ArrivalTally {
  double tail_lag_us = 0;                  // the lag at kArrivalTailQuantile: the tail lies above it
  std::vector<std::int64_t> last;          // iterations this rank arrived last
  std::vector<std::int64_t> tail_last;     // tail iterations this rank arrived last
  std::vector<double> tail_median_lag_us;  // the median lag of those; 0 when none

  std::int64_t iterations() const;
  std::int64_t tail_iterations() const;
};

ArrivalTally tally_arrivals(const std::vector<LastArrival>& arrivals, int nranks);

}  // namespace commtune
