#include "doctor/straggler_finding.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/text_format.hpp"
#include "doctor/measured_findings.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

// What one rank did over the cases that have its job size.
struct RankTail {
  std::int64_t tail = 0, last = 0;   // its tail iterations, its last arrivals
  double lag_us = 0, median_us = 0;  // sums over its tail iterations: lag, the case's median time
  std::size_t cases = 0;             // cases where it had tail iterations
  std::size_t led = 0;               // cases where it had strictly the most tail iterations
};

struct JobTail {
  std::vector<RankTail> ranks;
  std::int64_t tail = 0, iterations = 0;
  std::size_t cases = 0;  // cases with tail iterations
};

// The CPU shares over the cases that measured them for the job's ranks.
struct JobShares {
  std::size_t cases = 0;
  std::vector<std::size_t> starved;              // per rank: cases where it was starved
  std::vector<std::vector<double>> own, others;  // per rank, per case: its share, the others' median
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5);
}

std::vector<double> without(const std::vector<double>& v, std::size_t i) {
  std::vector<double> out;
  for (std::size_t k = 0; k < v.size(); ++k)
    if (k != i) out.push_back(v[k]);
  return out;
}

JobShares pool_shares(const std::vector<CaseArrivals>& cases, std::size_t nranks) {
  JobShares job;
  job.starved.assign(nranks, 0);
  job.own.resize(nranks);
  job.others.resize(nranks);
  for (const auto& c : cases) {
    if (c.cpu_share.size() != nranks) continue;
    ++job.cases;
    if (const auto r = starved_rank(c.cpu_share)) ++job.starved[*r];
    for (std::size_t r = 0; r < nranks; ++r) {
      job.own[r].push_back(c.cpu_share[r]);
      job.others[r].push_back(median_of(without(c.cpu_share, r)));
    }
  }
  return job;
}

bool starved_throughout(const JobShares& job, std::size_t r) {
  return job.starved[r] >= kStragglerMinCases && 2 * job.starved[r] > job.cases;
}

std::string share_evidence(const JobShares& job, std::size_t r) {
  return printf_string(
      "on the CPU for %.0f%% of its timed loops against %.0f%% for the other ranks (medians over the "
      "cases): starved, beyond the margin and the other ranks' spread, in %zu of %zu cases",
      median_of(job.own[r]) * 100, median_of(job.others[r]) * 100, job.starved[r], job.cases);
}

// The rank with strictly the most tail iterations of a case; none on a tie or an empty tail.
std::optional<std::size_t> tail_leader(const ArrivalTally& t) {
  const auto top = std::max_element(t.tail_last.begin(), t.tail_last.end());
  if (top == t.tail_last.end() || *top == 0 || std::count(t.tail_last.begin(), t.tail_last.end(), *top) > 1)
    return std::nullopt;
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

std::string tail_evidence(const RankTail& t, const JobTail& job, double p_value) {
  const double n = static_cast<double>(job.ranks.size());
  return printf_string(
             "last to arrive in %lld of the %lld slowest-arrival iterations (lag above each case's 90th "
             "percentile; chance 1 in %.0f: %.1f expected, binomial p = %.1e)",
             static_cast<long long>(t.tail), static_cast<long long>(job.tail), n,
             static_cast<double>(job.tail) / n, p_value) +
         printf_string(
             ", %.1f us late on median (%.0f%% of the iteration time), the most often in %zu of %zu "
             "cases; last in %lld of all %lld iterations",
             t.lag_us / static_cast<double>(t.tail), t.lag_us / t.median_us * 100, t.led, job.cases,
             static_cast<long long>(t.last), static_cast<long long>(job.iterations));
}

// Rank `rank`'s tail rule (rule 2), with its evidence; nullopt when it does not hold.
std::optional<std::string> late_arrivals(const JobTail& job, std::size_t r) {
  const RankTail& t = job.ranks[r];
  const std::size_t nranks = job.ranks.size();
  if (t.tail == 0 || t.median_us <= 0) return std::nullopt;
  const double p_value = binomial_upper_tail(t.tail, job.tail, 1 / static_cast<double>(nranks));
  const bool often = p_value * static_cast<double>(nranks) < kStragglerAlpha &&
                     static_cast<double>(t.tail) >=
                         straggler_min_share(static_cast<int>(nranks)) * static_cast<double>(job.tail);
  const bool replicated = t.led >= kStragglerMinCases && 2 * t.led > job.cases;
  if (!often || !replicated || t.lag_us < kMinMargin * t.median_us) return std::nullopt;
  return tail_evidence(t, job, p_value);
}

// The CPU share's finding is a warning since its rates on the emulated cluster met their target
// (docs/doctor.md: the CPU-limited rank named in 20 of 20 runs on a quiet machine, 8 of 10 under
// load; no healthy run named in 30 of 30). The arrivals' finding stays information (3 of 10
// healthy runs named by their arrivals in an earlier run).
constexpr Severity kStarvedSeverity = Severity::Warning;

Finding straggler(std::size_t rank, bool starved, const std::string& evidence,
                  const std::vector<std::string>& hosts) {
  return Finding{
      starved ? "straggler" : "straggler-arrivals", starved ? kStarvedSeverity : Severity::Info,
      subject(rank, hosts), evidence,
      "this rank holds the others up: check what else runs on its node or core (top, CPU limits and "
      "frequency, interrupts), its NUMA and CPU binding, and its link"};
}

}  // namespace

std::optional<std::size_t> starved_rank(const std::vector<double>& cpu_share) {
  if (cpu_share.size() < 2) return std::nullopt;
  const auto lowest =
      static_cast<std::size_t>(std::min_element(cpu_share.begin(), cpu_share.end()) - cpu_share.begin());
  const std::vector<double> others = without(cpu_share, lowest);
  const double median = median_of(others);
  if (!(median > 0)) return std::nullopt;
  const auto [low, high] = std::minmax_element(others.begin(), others.end());
  const double spread = (*high - *low) / median;
  const double deficit = 1 - cpu_share[lowest] / median;
  if (deficit < std::max(kMinMargin, spread)) return std::nullopt;
  return lowest;
}

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

std::vector<Finding> find_stragglers(const std::vector<CaseArrivals>& cases,
                                     const std::vector<std::string>& hosts) {
  std::size_t nranks = 0;
  for (const auto& c : cases) nranks = std::max({nranks, c.tally.last.size(), c.cpu_share.size()});
  if (nranks < 2) return {};
  const JobTail job = pool(cases, nranks);
  const JobShares shares = pool_shares(cases, nranks);
  std::vector<Finding> out;
  for (std::size_t r = 0; r < nranks; ++r) {
    const bool starved = starved_throughout(shares, r);
    const std::optional<std::string> late = late_arrivals(job, r);
    if (!starved && !late) continue;
    std::string evidence = starved ? share_evidence(shares, r) : *late;
    if (starved && late) evidence += "; and " + *late;
    out.push_back(straggler(r, starved, evidence, hosts));
  }
  return out;
}

}  // namespace commtune
