#pragma once
// The finalists' re-measure, raced: after each of its rounds, the finalists whose confirmation has
// become impossible are measured no more.
//
// Folded by sweep/confirm_round (every case has its round medians), a finalist is judged by the
// tuner's paired rule (tune/case_verdict.hpp): at least the margin faster than the default in every
// round, so one round that is not ends it, whatever the number of rounds. The rest of this note is
// the rule without round medians (cases folded by other means).
//
// A finalist is confirmed only if, in every placement, its re-measured median interval lies below
// the default's (measure/decision.hpp). With the re-measure's few rounds that interval is the range
// of the round medians (measure/statistics.hpp: the ranks of a 95% interval for 5 samples are the
// first and the last), and a range only widens as rounds are added. So once one of a finalist's
// round medians is at or above one of the default's, in any placement, the later rounds cannot
// confirm it: the tuner's verdict is the same whether they run or not. A size whose finalists
// are all out needs no more of the default either.
#include <cstddef>
#include <vector>

#include "measure/decision.hpp"
#include "results/case_result.hpp"
#include "tune/tuner.hpp"

namespace commtune {

// `folded`: the rounds so far, one case per (setting, collective, size, placement) summarising
// its round medians (sweep/confirm_round's fold_rounds). Returns `finalists` less the settings
// that can no longer be confirmed at `rule`'s margin, less the sizes left with none. Without
// round medians, with a number of `rounds` whose final interval is not the range of the medians,
// nothing is pruned.
std::vector<Finalists> confirmable_finalists(const std::vector<Finalists>& finalists,
                                             std::vector<CaseResult> folded, std::size_t rounds,
                                             const DecisionRule& rule);

}  // namespace commtune
