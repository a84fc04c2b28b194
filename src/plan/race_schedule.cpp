#include "plan/race_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace commtune {

double round_fraction(const RaceOptions& race, std::size_t round) {
  return std::min(1.0, race.first_fraction * std::pow(race.growth, static_cast<double>(round)));
}

namespace {

// The least samples of a case sampled for `fraction` of the full sampling in one go: they follow
// the interval's width (1 / sqrt of the samples), so sqrt(fraction) of the full rule's, at least
// kLeastRoundSamples (where the full rule asks that many).
std::size_t least_samples_at(std::size_t full, double fraction) {
  const auto scaled =
      static_cast<std::size_t>(std::ceil(static_cast<double>(full) * std::sqrt(std::min(fraction, 1.0))));
  return std::max(std::min(full, kLeastRoundSamples), scaled);
}

}  // namespace

std::size_t round_least_samples(std::size_t full, const RaceOptions& race, std::size_t round) {
  double before = 0;
  for (std::size_t r = 0; r < round; ++r) before += round_fraction(race, r);
  const std::size_t pooled = least_samples_at(full, before + round_fraction(race, round));
  if (round == 0) return pooled;
  const std::size_t had = least_samples_at(full, before);
  return std::max(std::min(full, kLeastLaterRoundSamples), pooled - std::min(pooled, had));
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
  rule.min_samples = round_least_samples(full.min_samples, race, round);
  if (round > 0) rule.warmup_iterations = std::min(full.warmup_iterations, kRepeatedCaseWarmup);
  if (round == 0 && !full.fixed_iterations) rule.warmup_enough_s = rule.min_time_s;
  if (full.fixed_iterations)
    rule.fixed_iterations = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::ceil(static_cast<double>(*full.fixed_iterations) * f)));
  return rule;
}

StoppingRule remeasure_rule(const StoppingRule& full) {
  StoppingRule rule =
      round_rule(full, RaceOptions{.enabled = true, .rounds = 1, .first_fraction = kRemeasureFraction}, 0);
  rule.min_samples = std::min(full.min_samples, kLeastRemeasureSamples);
  rule.warmup_iterations = std::min(full.warmup_iterations, kRepeatedCaseWarmup);
  return rule;
}

double race_fraction_total(const RaceOptions& race) {
  double total = 0;
  for (std::size_t r = 0; r < race.rounds; ++r) total += round_fraction(race, r);
  return total;
}

}  // namespace commtune
