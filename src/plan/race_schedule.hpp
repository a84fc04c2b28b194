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

// The fewest least samples of a later round's case: its round has a median of its own (the
// samples of every round are pooled for the race's decisions).
inline constexpr std::size_t kLeastLaterRoundSamples = 3;

// The warm-up of a case that its setting has already run (a later racing round, a re-measure
// round): the calls before its first timed one, at most this many (the sweep's -w where it asks
// fewer). The setting's communicator made its connections when it first ran the case; what a
// call brings back is its buffers in cache. Profiled on the 2-core VM (docs/racing.md), -w's 5
// calls were a fifth of a raced command's time in its later rounds and re-measure (at 4 MiB a
// call takes milliseconds). The replay's later rounds do the same (one warm-up step).
inline constexpr std::size_t kRepeatedCaseWarmup = 1;

// The least samples of round `round`'s case, for a full rule asking `full`. Round 0's are those
// of a case sampled for its fraction (sqrt(f) of the full rule's: the interval's width follows
// 1 / sqrt of the samples; at least kLeastRoundSamples). A later round's case is pooled with the
// same case's earlier rounds, so it takes what the rounds so far together lack against a case of
// their added fractions, at least kLeastLaterRoundSamples: a survivor no longer pays round 0's
// least samples again in every round (at the large paced broadcasts, 5 groups of calls each).
std::size_t round_least_samples(std::size_t full, const RaceOptions& race, std::size_t round);

// The fraction of the full per-case sampling that round `round` (0-based) gets, in (0, 1].
double round_fraction(const RaceOptions& race, std::size_t round);

// The stopping rule of one round: the times (or fixed iterations) scaled by f = round_fraction,
// the noise target widened by 1 / sqrt(f) (so that a case which stops on its noise target also
// takes about f of its samples), the least samples of round_least_samples; the warm-up as it is
// in round 0, at most kRepeatedCaseWarmup after it.
StoppingRule round_rule(const StoppingRule& full, const RaceOptions& race, std::size_t round);

// The finalists' re-measure samples each case of a round for this share of a full case: its rounds
// are one sample each (their medians), and the confirmation's rule looks at their range, so a
// round needs its median, not the sweep's precision.
inline constexpr double kRemeasureFraction = 0.125;

// The least samples of a re-measure round's case (the full rule's where it asks fewer): the round
// gives its median only, and 3 samples have one. A large paced broadcast's case is its least
// samples (paced groups of calls), so they were most of the re-measure's time.
inline constexpr std::size_t kLeastRemeasureSamples = 3;

// The stopping rule of one round of the re-measure: round_rule's scaling at kRemeasureFraction,
// the least samples kLeastRemeasureSamples, the warm-up at most kRepeatedCaseWarmup (the sweep
// ran every finalist's case under its setting).
StoppingRule remeasure_rule(const StoppingRule& full);

// The fractions of every round added up: a survivor's sampling over the whole race, relative to
// an exhaustive sweep's (15/16 for the default schedule).
double race_fraction_total(const RaceOptions& race);

}  // namespace commtune
