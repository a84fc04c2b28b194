#include "doctor/straggler_finding.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/text_format.hpp"
#include "doctor/measured_findings.hpp"

namespace commtune {
namespace {

// What one rank did over the cases that have its job size.
struct RankTail {
  std::int64_t tail = 0, last = 0;    // its tail iterations, its last arrivals
  double lag_us = 0, median_us = 0;   // sums over its tail iterations: lag, the case's median time
  std::size_t cases = 0;              // cases where it had tail iterations
  std::size_t led = 0;                // cases where it had strictly the most tail iterations
};

struct JobTail {
  std::vector<RankTail> ranks;
  std::int64_t tail = 0, iterations = 0;
  std::size_t cases = 0;  // cases with tail iterations
};

// The rank with strictly the most tail iterations of a case; none on a tie or an empty tail.
std::optional<std::size_t> tail_leader(const ArrivalTally& t) {
  const auto top = std::max_element(t.tail_last.begin(), t.tail_last.end());
  if (top == t.tail_last.end() || *top == 0 || std::count(t.tail_last.begin(), t.tail_last.end(), *top) > 1) return std::nullopt;
  return static_cast<std::size_t>(top - t.tail_last.begin());
}

JobTail pool(const std::vector<CaseArrivals>& cases, std::size_t nranks) {
  JobTail job;
  job.ranks.resize(nranks);
  for (const auto& c : cases) {
    if (c.tally.last.size() != nranks) continue;
    job.tail += c.tally.tail_iterations();
    job.iterations += c.tally.iterations();
    job.cases += c.tally.tail_iterations() > 0 ? 1 : 0;
    if (const auto leader = tail_leader(c.tally)) ++job.ranks[*leader].led;
    for (std::size_t r = 0; r < nranks; ++r) {
      RankTail& t = job.ranks[r];
      const auto k = c.tally.tail_last[r];
      t.tail += k;
      t.last += c.tally.last[r];
      t.lag_us += static_cast<double>(k) * c.tally.tail_median_lag_us[r];
      t.median_us += static_cast<double>(k) * c.median_us;
      t.cases += k > 0 ? 1 : 0;
    }
  }
  return job;
}

std::string subject(std::size_t rank, const std::vector<std::string>& hosts) {
  std::string s = "rank " + std::to_string(rank);
  if (rank < hosts.size() && !hosts[rank].empty()) s += " (host " + hosts[rank] + ")";
  return s;
}

Finding straggler(std::size_t rank, const RankTail& t, const JobTail& job, double p_value, const std::vector<std::string>& hosts) {
  const double n = static_cast<double>(job.ranks.size());
  return Finding{"straggler", Severity::Info, subject(rank, hosts),
                 printf_string("last to arrive in %lld of the %lld slowest-arrival iterations (lag above each case's 90th "
                               "percentile; chance 1 in %.0f: %.1f expected, binomial p = %.1e)",
                               static_cast<long long>(t.tail), static_cast<long long>(job.tail), n,
                               static_cast<double>(job.tail) / n, p_value) +
                     printf_string(", %.1f us late on median (%.0f%% of the iteration time), the most often in %zu of %zu "
                                   "cases; last in %lld of all %lld iterations",
                                   t.lag_us / static_cast<double>(t.tail), t.lag_us / t.median_us * 100, t.led, job.cases,
                                   static_cast<long long>(t.last), static_cast<long long>(job.iterations)),
                 "this rank holds the others up: check what else runs on its node or core (top, CPU limits and "
                 "frequency, interrupts), its NUMA and CPU binding, and its link"};
}

}  // namespace

double straggler_min_share(int nranks) {
  const double n = static_cast<double>(nranks);
  return std::min(2 / n, (1 + 1 / n) / 2);
}

double binomial_upper_tail(std::int64_t k, std::int64_t trials, double p) {
  if (k <= 0) return 1;
  if (k > trials) return 0;
  const double n = static_cast<double>(trials);
  double sum = 0;
  for (std::int64_t i = k; i <= trials; ++i) {
    const double x = static_cast<double>(i);
    sum += std::exp(std::lgamma(n + 1) - std::lgamma(x + 1) - std::lgamma(n - x + 1) + x * std::log(p) +
                    (n - x) * std::log1p(-p));
  }
  return std::min(1.0, sum);
}

std::vector<Finding> find_stragglers(const std::vector<CaseArrivals>& cases, const std::vector<std::string>& hosts) {
  std::size_t nranks = 0;
  for (const auto& c : cases) nranks = std::max(nranks, c.tally.last.size());
  if (nranks < 2) return {};
  const JobTail job = pool(cases, nranks);
  std::vector<Finding> out;
  for (std::size_t r = 0; r < nranks; ++r) {
    const RankTail& t = job.ranks[r];
    if (t.tail == 0 || t.median_us <= 0) continue;
    const double p_value = binomial_upper_tail(t.tail, job.tail, 1 / static_cast<double>(nranks));
    const bool often = p_value * static_cast<double>(nranks) < kStragglerAlpha &&
                       static_cast<double>(t.tail) >= straggler_min_share(static_cast<int>(nranks)) * static_cast<double>(job.tail);
    const bool replicated = t.led >= kStragglerMinCases && 2 * t.led > job.cases;
    if (often && replicated && t.lag_us >= kMinMargin * t.median_us) out.push_back(straggler(r, t, job, p_value, hosts));
  }
  return out;
}

}  // namespace commtune
