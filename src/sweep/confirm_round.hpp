#pragma once
// The finalists' re-measure, in fresh interleaved rounds:
// the default and each finalist setting are measured again at the finalist sizes, in several
// rounds; each round opens every setting afresh, in a rotated order, so drift hits them all
// alike, and runs side by side (size by size, plan/race_order) when the backend keeps all of a
// round's settings open at once. Each round's median is one sample: a setting's confirmation
// case summarises its round medians, so disjoint CIs there mean every round agreed. A wrong or
// failed round marks the case.
#include <optional>
#include <string>
#include <vector>

#include "results/results_document.hpp"
#include "sweep/sweep_run.hpp"
#include "tune/tuner.hpp"

namespace commtune {

// What the re-measure did.
struct Confirmation {
  // The confirmation cases (every rank); nullopt when there was nothing to re-measure, it was
  // interrupted, or --budget left no time for its first round.
  std::optional<ResultsDocument> cases;
  std::size_t rounds = 0;   // rounds run
  std::string budget_note;  // --budget cut it: what ran and why (empty otherwise)
  bool out_of_budget() const { return !budget_note.empty() && rounds == 0; }
};

// Every rank calls it in step; `finalists` is read on rank 0 only and sent to the others. With
// --budget a round starts only if its estimate (the cost model's, scaled by how the rounds so far
// compared with theirs) ends within the whole budget, as every rank agrees.
Confirmation run_confirm_round(const SweepRun& sweep, const std::vector<Finalists>& finalists,
                               std::size_t rounds);

// The rounds' cases folded into one case per (setting, collective, size, placement).
std::vector<CaseResult> fold_rounds(const std::vector<CaseResult>& round_cases);

}  // namespace commtune
