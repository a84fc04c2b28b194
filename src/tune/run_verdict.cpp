#include "tune/run_verdict.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace commtune {
namespace {

struct Band {
  double low = 0, center = 0, high = 0;
};

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Band band_of(const CaseRuns& side) {
  if (side.run_us.empty()) throw Error("judge_runs: a side without runs");
  const auto [low, high] = std::minmax_element(side.run_us.begin(), side.run_us.end());
  Band b{*low, median_of(side.run_us), *high};
  if (side.run_us.size() == 1 && side.ci_low > 0 && side.ci_high >= side.ci_low) {
    b.low = std::min(b.low, side.ci_low);
    b.high = std::max(b.high, side.ci_high);
  }
  return b;
}

}  // namespace

std::string_view name_of(Verdict v) {
  switch (v) {
    case Verdict::Faster:
      return "FASTER";
    case Verdict::Slower:
      return "SLOWER";
    case Verdict::Same:
      return "SAME";
    case Verdict::Ambiguous:
      return "AMBIGUOUS";
  }
  return "?";
}

double run_orderings(std::size_t m, std::size_t k) {
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) c = c * static_cast<double>(m + i) / static_cast<double>(i);
  return c;
}

RunsVerdict runs_verdict(const CaseRuns& baseline, const CaseRuns& current, const RunRule& rule) {
  Band base = band_of(baseline);
  const Band cur = band_of(current);
  RunsVerdict j;
  const bool few_launches = rule.run_noise > 0 && rule.baseline_launches > 0 && rule.current_launches > 0 &&
                            run_orderings(rule.baseline_launches, rule.current_launches) < kRankOrderings;
  j.widened = few_launches || run_orderings(baseline.run_us.size(), current.run_us.size()) < kRankOrderings;
  if (j.widened) {
    base.low /= 1 + rule.run_noise;
    base.high *= 1 + rule.run_noise;
  }
  j.change = cur.center / base.center - 1;
  j.change_low = cur.low / base.high - 1;
  j.change_high = cur.high / base.low - 1;
  const double t = rule.threshold;
  if (cur.low > base.high * (1 + t))
    j.verdict = Verdict::Slower;
  else if (cur.high * (1 + t) < base.low)
    j.verdict = Verdict::Faster;
  else if (std::abs(j.change) < t)
    j.verdict = Verdict::Same;
  else
    j.verdict = Verdict::Ambiguous;
  return j;
}

bool strong_evidence(const RunsVerdict& j, double threshold) {
  const double bar = kLoneSizeFactor * threshold;
  if (j.verdict == Verdict::Slower) return j.change_low >= bar;
  if (j.verdict == Verdict::Faster) return j.change_high <= 1 / (1 + bar) - 1;
  return true;
}

}  // namespace commtune
