#pragma once
// The finalists' re-measure, in fresh interleaved rounds:
// the default and each finalist setting are measured again at the finalist sizes, in several
// rounds; each round opens every setting afresh, in a rotated order, so drift hits them all
// alike. Each round's median is one sample: a setting's confirmation case summarises its round
// medians, so disjoint CIs there mean every round agreed. A wrong or failed round marks the case.
#include <optional>
#include <vector>

#include "results/results_document.hpp"
#include "sweep/sweep_run.hpp"
#include "tune/tuner.hpp"

namespace commtune {

// Every rank calls it in step; `finalists` is read on rank 0 only and sent to the others. Returns
// the confirmation cases (every rank), or nullopt when there was nothing to re-measure or the
// round was interrupted.
std::optional<ResultsDocument> run_confirm_round(const SweepRun& sweep, const std::vector<Finalists>& finalists,
                                                 std::size_t rounds);

// The rounds' cases folded into one case per (setting, collective, size, placement).
std::vector<CaseResult> fold_rounds(const std::vector<CaseResult>& round_cases);

}  // namespace commtune
