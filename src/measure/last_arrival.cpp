#include "measure/last_arrival.hpp"

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

std::int64_t total(const std::vector<std::int64_t>& counts) {
  return std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
}

double lag_quantile(const std::vector<LastArrival>& arrivals, double q) {
  std::vector<double> lags;
  lags.reserve(arrivals.size());
  for (const auto& a : arrivals) lags.push_back(a.lag_s * 1e6);
  std::sort(lags.begin(), lags.end());
  return quantile_sorted(lags, q);
}

}  // namespace

LastArrival last_arrival(std::span<const double> inside_s) {
  if (inside_s.size() < 2) throw Error("last_arrival: needs 2 or more ranks");
  std::size_t first = 0, second = 1;
  if (inside_s[second] < inside_s[first]) std::swap(first, second);
  for (std::size_t r = 2; r < inside_s.size(); ++r) {
    if (inside_s[r] < inside_s[first])
      second = first, first = r;
    else if (inside_s[r] < inside_s[second])
      second = r;
  }
  return LastArrival{static_cast<int>(first), inside_s[second] - inside_s[first]};
}

std::vector<LastArrival> last_arrivals(const std::vector<double>& inside_s, int nranks) {
  const auto n = static_cast<std::size_t>(nranks);
  if (nranks < 2 || inside_s.size() % n != 0)
    throw Error("last_arrivals: not a whole number of iterations of 2 or more ranks");
  const std::size_t iterations = inside_s.size() / n;
  std::vector<double> median(n), column(iterations);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t i = 0; i < iterations; ++i) column[i] = inside_s[i * n + r];
    std::sort(column.begin(), column.end());
    median[r] = quantile_sorted(column, 0.5);
  }
  std::vector<LastArrival> out;
  out.reserve(iterations);
  std::vector<double> one(n);
  for (std::size_t i = 0; i < iterations; ++i) {
    for (std::size_t r = 0; r < n; ++r) one[r] = inside_s[i * n + r] - median[r];
    out.push_back(last_arrival(one));
  }
  return out;
}

std::int64_t ArrivalTally::iterations() const { return total(last); }
std::int64_t ArrivalTally::tail_iterations() const { return total(tail_last); }

ArrivalTally tally_arrivals(const std::vector<LastArrival>& arrivals, int nranks) {
  ArrivalTally t;
  const auto n = static_cast<std::size_t>(nranks);
  t.last.assign(n, 0);
  t.tail_last.assign(n, 0);
  t.tail_median_lag_us.assign(n, 0);
  if (arrivals.empty()) return t;
  t.tail_lag_us = lag_quantile(arrivals, kArrivalTailQuantile);
  std::vector<std::vector<double>> tail_lags(n);
  for (const auto& a : arrivals) {
    if (a.rank < 0 || static_cast<std::size_t>(a.rank) >= n)
      throw Error("tally_arrivals: a rank outside the job");
    ++t.last[static_cast<std::size_t>(a.rank)];
    if (a.lag_s * 1e6 > t.tail_lag_us) tail_lags[static_cast<std::size_t>(a.rank)].push_back(a.lag_s * 1e6);
  }
  for (std::size_t r = 0; r < n; ++r) {
    t.tail_last[r] = static_cast<std::int64_t>(tail_lags[r].size());
    if (!tail_lags[r].empty()) t.tail_median_lag_us[r] = summarize(tail_lags[r]).median;
  }
  return t;
}

}  // namespace commtune
