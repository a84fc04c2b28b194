#pragma once
// The one rule for "is A faster than B, by how much, with what confidence, and are they practically
// equal", from the summaries a results file keeps: medians and their distribution-free ~95%
// confidence intervals (measure/statistics.hpp). The tuner, racing, the re-measure's pruning and
// every text that states the rule use this file; the margin flows to all of them from the command
// line (`sweep --margin`, `tune --margin`) or the config's "margin".
//
// - Clearly faster: the two median intervals do not overlap (Hoefler & Belli) and even their
//   nearest ends are the margin apart: the candidate's slowest plausible median is at least the
//   margin below the baseline's fastest (1 - candidate CI high / baseline CI low >= margin). The
//   intervals' widths count once, in that gap, so a tenfold gain over a noisy baseline is not
//   lost to the baseline's noise, and a gain that only the point estimates show is not taken.
// - Practically equal: the difference relative to the faster one, plus the noise floor, is within
//   the margin: no amount of sampling can make either clear it.
// - Within the margin of (racing's indifference zone): the candidate's change plus the noise floor
//   is at most the margin: it may be slower, but not by more than the margin.
// - Still confirmable (the re-measure, whose interval over few rounds is the range of the round
//   medians): every round median of the candidate below every one of the baseline's.
#include <string>
#include <vector>

#include "measure/statistics.hpp"

namespace commtune {

inline constexpr double kDefaultMargin = 0.02;

// What a winner must clear. One value per command: parsed once, carried by the sweep's options
// and the tuner's.
struct DecisionRule {
  double margin = kDefaultMargin;  // least fraction of time a winner saves, between the intervals
};

// Throws InputError naming `input` unless the margin is a fraction in [0, 1).
DecisionRule decision_rule(double margin, const std::string& input);

struct Comparison {
  double baseline_us = 0;        // baseline median
  double candidate_us = 0;       // candidate median
  double change = 0;             // (candidate - baseline) / baseline: negative is faster
  bool disjoint_faster = false;  // candidate CI entirely below the baseline CI
  bool disjoint_slower = false;  // candidate CI entirely above the baseline CI
  double noise_floor = 0;        // larger relative CI half-width of the two medians
  double least_gain = 0;         // 1 - candidate CI high / baseline CI low: the gain the intervals guarantee
  double least_loss = 0;         // 1 - baseline CI high / candidate CI low: the same, the other way
};

Comparison compare_stats(const SampleStats& baseline, const SampleStats& candidate);

// Time saved relative to the baseline (positive: candidate faster).
inline double gain_of(const Comparison& c) { return -c.change; }

// The bar a difference between runs must clear (compare's between-run rule): max(margin, noise floor).
double practical_threshold(const Comparison& c, const DecisionRule& rule);

bool clearly_faster(const Comparison& c, const DecisionRule& rule);
// Exactly when the baseline, judged as the candidate against this candidate, is clearly faster: the
// rule is one relation, seen from either side.
bool clearly_slower(const Comparison& c, const DecisionRule& rule);
bool practically_equal(const Comparison& c, const DecisionRule& rule);
// The indifference zone (racing's stop): the candidate is shown, with confidence, to be at most the
// margin slower than the baseline, or faster: its change plus the noise floor is within the
// margin. Practically equal implies it; unlike that relation it is one-sided, so a setting that is
// clearly not the faster one settles as soon as the slower side is shown to be within the margin.
bool within_margin_of(const Comparison& c, const DecisionRule& rule);

// The re-measure: whether the candidate's round medians (min..max) can still all end below the
// baseline's, given that a range only widens as rounds are added.
bool still_confirmable(const SampleStats& baseline_rounds, const SampleStats& candidate_rounds);

// The re-measure's paired rule, where each of its rounds measured the baseline and the candidate
// side by side (sweep/confirm_round): round r's two medians share that round's state of the
// machine (on a shared or oversubscribed one, phases that move the settings by far more than the
// margin from round to round), so the rule compares them within the round, never across rounds. The candidate
// is clearly faster when in every round it is at least the margin faster than the baseline's median of the
// same round (a sign test: with no difference, n rounds all fall on its side with probability 2^-n, 1/32 for
// the 5 rounds); clearly slower when every round is the margin the other way. `baseline` and `candidate` are
// the round medians in round order; the candidate's rounds are the first of the baseline's (a finalist stops
// while the default goes on). False when a round is missing on either side.
bool paired_clearly_faster(const std::vector<double>& baseline, const std::vector<double>& candidate,
                           const DecisionRule& rule);
bool paired_clearly_slower(const std::vector<double>& baseline, const std::vector<double>& candidate,
                           const DecisionRule& rule);
// Whether more rounds can still make the candidate paired_clearly_faster: every round so far is.
bool paired_still_confirmable(const std::vector<double>& baseline, const std::vector<double>& candidate,
                              const DecisionRule& rule);

// The rule in words, for every output that states it: "disjoint median CIs, their nearest ends at
// least 2.0% apart".
std::string rule_text(const DecisionRule& rule);

}  // namespace commtune
