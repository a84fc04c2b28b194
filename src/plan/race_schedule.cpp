#include "plan/race_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace commtune {

double round_fraction(const RaceOptions& race, std::size_t round) {
  return std::min(1.0, race.first_fraction * std::pow(race.growth, static_cast<double>(round)));
}

StoppingRule round_rule(const StoppingRule& full, const RaceOptions& race, std::size_t round) {
  const double f = round_fraction(race, round);
  StoppingRule rule = full;
  rule.min_time_s = full.min_time_s * f;
  rule.max_time_s = full.max_time_s * f;
  // A round's case looks at its samples as often as a full one does: otherwise its first batch
  // after the least samples would already be most of its share.
  rule.max_batch_s = full.max_batch_s * f;
  // The samples a noise target needs grow as 1 / target^2: widened by 1 / sqrt(f), a quiet case
  // (one that stops on its noise target before its max time) also costs about f of its full cost.
  rule.target_relative_ci = std::min(1.0, full.target_relative_ci / std::sqrt(f));
  // The least samples follow the interval's width the same way, down to kLeastRoundSamples: a
  // rooted collective's sample is a paced group of calls, and a large one's least samples were
  // most of a round-0 case.
  const auto scaled =
      static_cast<std::size_t>(std::ceil(static_cast<double>(full.min_samples) * std::sqrt(f)));
  rule.min_samples = std::max(std::min(full.min_samples, kLeastRoundSamples), scaled);
  if (full.fixed_iterations)
    rule.fixed_iterations = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::ceil(static_cast<double>(*full.fixed_iterations) * f)));
  return rule;
}

StoppingRule remeasure_rule(const StoppingRule& full) {
  return round_rule(full, RaceOptions{.enabled = true, .rounds = 1, .first_fraction = kRemeasureFraction}, 0);
}

double race_fraction_total(const RaceOptions& race) {
  double total = 0;
  for (std::size_t r = 0; r < race.rounds; ++r) total += round_fraction(race, r);
  return total;
}

}  // namespace commtune
