#pragma once
// How long each racing round samples a case: round r gets first_fraction * growth^r of the
// sweep's per-case sampling (its min and max time, or -n's iterations; its noise target widened
// to match), never more than all of it.
#include <cstddef>

#include "measure/stopping_rule.hpp"
#include "plan/sweep_options.hpp"

namespace commtune {

// The fewest least samples a round's case takes (the full rule's, where it asks fewer): with 5
// samples the median's interval is their range (about 94%).
inline constexpr std::size_t kLeastRoundSamples = 5;

// The fraction of the full per-case sampling that round `round` (0-based) gets, in (0, 1].
double round_fraction(const RaceOptions& race, std::size_t round);

// The stopping rule of one round: the times (or fixed iterations) scaled by f = round_fraction,
// the noise target widened by 1 / sqrt(f) (so that a case which stops on its noise target also
// takes about f of its samples), the least samples scaled by sqrt(f) (at least
// kLeastRoundSamples), the warm-up as it is.
StoppingRule round_rule(const StoppingRule& full, const RaceOptions& race, std::size_t round);

// The finalists' re-measure samples each case of a round for this share of a full case: its rounds
// are one sample each (their medians), and the confirmation's rule looks at their range, so a
// round needs its median, not the sweep's precision.
inline constexpr double kRemeasureFraction = 0.25;

// The stopping rule of one round of the re-measure: round_rule's scaling at kRemeasureFraction.
StoppingRule remeasure_rule(const StoppingRule& full);

// The fractions of every round added up: a survivor's sampling over the whole race, relative to
// an exhaustive sweep's (15/16 for the default schedule).
double race_fraction_total(const RaceOptions& race);

}  // namespace commtune
