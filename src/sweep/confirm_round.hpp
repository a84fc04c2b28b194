#pragma once
// The finalists' re-measure, a sequential test in interleaved rounds: the default and each
// finalist setting are measured again at the finalist sizes, round after round, each round
// sampling a case for a share of a full one (plan/race_schedule's kRemeasureFraction), side by
// side (size by size, plan/race_order) when the backend keeps all of a round's settings open, in
// a rotated order so that drift hits them all alike. The settings are opened once: the sweep's
// own sessions where its race kept them (SweepRun::sessions), and kept across the rounds. Each
// round's median is one sample: a setting's confirmation case summarises its round medians, so
// disjoint CIs there mean every round agreed. After each round the finalists that can no longer
// be confirmed are measured no more (tune/confirm_pruning), and a size left with none stops. A
// wrong or failed round marks the case.
#include <optional>
#include <string>
#include <vector>

#include "results/results_document.hpp"
#include "sweep/race_rounds.hpp"
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
// compared with theirs) ends within the whole budget, as every rank agrees. `race` (rank 0's; empty
// elsewhere and after an exhaustive sweep): the race's rounds counted as the first ones at its
// sizes, which then run that many rounds fewer.
Confirmation run_confirm_round(const SweepRun& sweep, const std::vector<Finalists>& finalists,
                               std::size_t rounds, const RaceRounds& race = {});

// The rounds' cases folded into one case per (setting, collective, size, placement).
std::vector<CaseResult> fold_rounds(const std::vector<CaseResult>& round_cases);

}  // namespace commtune
