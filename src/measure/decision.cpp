#include "measure/decision.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/text_format.hpp"

namespace commtune {

DecisionRule decision_rule(double margin, const std::string& input) {
  if (!std::isfinite(margin) || margin < 0 || margin >= 1)
    throw InputError(input + " must be a fraction in [0, 1), e.g. 0.02");
  return DecisionRule{.margin = margin};
}

Comparison compare_stats(const SampleStats& baseline, const SampleStats& candidate) {
  Comparison c;
  c.baseline_us = baseline.median;
  c.candidate_us = candidate.median;
  c.change = baseline.median > 0 ? (candidate.median - baseline.median) / baseline.median : 0.0;
  c.disjoint_faster = candidate.median_ci_high < baseline.median_ci_low;
  c.disjoint_slower = candidate.median_ci_low > baseline.median_ci_high;
  c.noise_floor = std::max(relative_ci_half_width(baseline), relative_ci_half_width(candidate));
  c.least_gain = baseline.median_ci_low > 0 ? 1.0 - candidate.median_ci_high / baseline.median_ci_low : 0.0;
  c.least_loss = candidate.median_ci_low > 0 ? 1.0 - baseline.median_ci_high / candidate.median_ci_low : 0.0;
  return c;
}

double practical_threshold(const Comparison& c, const DecisionRule& rule) {
  return std::max(rule.margin, c.noise_floor);
}

bool clearly_faster(const Comparison& c, const DecisionRule& rule) {
  return c.disjoint_faster && c.least_gain >= rule.margin;  // the point gain is at least as large
}

// The same rule with the two sides swapped: the baseline clearly faster than the candidate, its gain
// taken relative to the candidate's time.
bool clearly_slower(const Comparison& c, const DecisionRule& rule) {
  return c.disjoint_slower && c.least_loss >= rule.margin;
}

// Symmetric, as the relation must be whichever side is the baseline: the difference is taken
// relative to the faster of the two.
bool practically_equal(const Comparison& c, const DecisionRule& rule) {
  return std::abs(c.change) / std::min(1.0, 1.0 + c.change) + c.noise_floor <= rule.margin;
}

bool within_margin_of(const Comparison& c, const DecisionRule& rule) {
  return c.change + c.noise_floor <= rule.margin;
}

bool still_confirmable(const SampleStats& baseline_rounds, const SampleStats& candidate_rounds) {
  return candidate_rounds.max < baseline_rounds.min;
}

namespace {

// Every round of the candidate has the baseline's round beside it, and `holds` for the pair.
template <typename Holds>
bool every_round(const std::vector<double>& baseline, const std::vector<double>& candidate, Holds holds) {
  if (candidate.empty() || candidate.size() > baseline.size()) return false;
  for (std::size_t r = 0; r < candidate.size(); ++r)
    if (!(baseline[r] > 0 && candidate[r] > 0 && holds(baseline[r], candidate[r]))) return false;
  return true;
}

}  // namespace

bool paired_clearly_faster(const std::vector<double>& baseline, const std::vector<double>& candidate,
                           const DecisionRule& rule) {
  return every_round(baseline, candidate, [&](double b, double c) { return c <= b * (1 - rule.margin); });
}

// The mirror image: the baseline at least the margin faster than the candidate in every round.
bool paired_clearly_slower(const std::vector<double>& baseline, const std::vector<double>& candidate,
                           const DecisionRule& rule) {
  return every_round(baseline, candidate, [&](double b, double c) { return b <= c * (1 - rule.margin); });
}

bool paired_still_confirmable(const std::vector<double>& baseline, const std::vector<double>& candidate,
                              const DecisionRule& rule) {
  return candidate.empty() || paired_clearly_faster(baseline, candidate, rule);
}

std::string rule_text(const DecisionRule& rule) {
  return "disjoint median CIs, their nearest ends at least " + format_percent(rule.margin) + " apart";
}

}  // namespace commtune
