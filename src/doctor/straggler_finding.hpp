#pragma once
// The straggler rank, from two kinds of evidence.
//
// 1. Its share of the CPU (`straggler`, a warning; docs/doctor.md gives its rates): a busy-polling MPI rank
// (Open MPI waits by polling) runs whenever the scheduler lets it, so its CPU seconds / wall seconds over the
// timed loops is the share of the time it could run. A rank under a CPU limit, or on a core that other work
// takes, gets less than the others, and the others wait for it wherever they need its data (inside the call
// as well as before it, where no arrival order can see it). In a case, the rank with the least share is
// starved when its deficit, 1 - share / the median share of the other ranks, reaches max(kMinMargin, the
// other ranks' own spread: (max - min) / median). Named when the same rank is starved in more than half of
// the cases that measured the shares, and in at least kStragglerMinCases of them (cases are separate
// stretches of time: one burst is not a rank).
//
// 2. Its arrivals alone (`straggler-arrivals`, information; the evidence of `straggler` too when
// both hold): one rank that arrives last at the collectives far more often
// than chance, by a lag that matters. Judged on the tail iterations (lag above the case's 90th percentile of
// lags, measure/last_arrival): in a healthy job the last rank of those is any rank, 1 in n; a
// straggler takes most of them.
//
// The rule, over every case of the sweep together (a straggler is a property of the rank):
//   - binomial test: the rank's count of tail iterations against chance 1/n, one-sided,
//     p x n (Bonferroni over the ranks) below kStragglerAlpha;
//   - and far more often: a share of the tail iterations of at least kStragglerMinShare(n);
//   - and a lag beyond the noise: its tail lags, weighted by count, at least kMinMargin of the
//     cases' median iteration times (a consistent but negligible lag, such as an algorithm's own
//     exit order, is not named);
//   - and replicated: it leads the tail (strictly the most tail iterations) in more than half of
//     the cases that have tail iterations, and in at least kStragglerMinCases of them; a burst of
//     contention on one core during one or two cases is not a straggler rank.
#include <optional>
#include <string>
#include <vector>

#include "doctor/finding.hpp"
#include "measure/last_arrival.hpp"

namespace commtune {

inline constexpr double kStragglerAlpha = 1e-3;
inline constexpr std::size_t kStragglerMinCases = 3;

// min(2/n, (1 + 1/n) / 2): twice chance, or halfway from chance to always for 2 or 3 ranks.
double straggler_min_share(int nranks);

// One-sided binomial tail: P(X >= k) for X ~ Binomial(trials, p).
double binomial_upper_tail(std::int64_t k, std::int64_t trials, double p);

struct CaseArrivals {
  std::string label;     // the case, for the evidence ("allreduce 64 KiB")
  double median_us = 0;  // its median iteration time
  ArrivalTally tally;
  std::vector<double>
      cpu_share;  // each rank's share of the CPU over the timed loops; empty when not measured
};

// The rank starved of the CPU in one case (rule 1 above); none when no rank's deficit clears the
// margin, or the shares are not one per rank of 2 or more.
std::optional<std::size_t> starved_rank(const std::vector<double>& cpu_share);

// `hosts[r]`: rank r's host (may be shorter: no host named).
std::vector<Finding> find_stragglers(const std::vector<CaseArrivals>& cases,
                                     const std::vector<std::string>& hosts);

}  // namespace commtune
