#pragma once
// A case's racing rounds: pooled into the one case the results hold, and, at the finalist sizes,
// counted as the re-measure's first rounds. A raced sweep measures a size's
// settings side by side in each of its rounds (sweep/raced_sweep), as the re-measure does, and
// each round's median is a paired sample as a re-measure round's is. At a finalist size, the
// rounds in which the default and every finalist ran, side by side, count as re-measure rounds,
// up to the re-measure's rounds less kFreshRemeasureRounds (the finalists were picked on the
// race's rounds, so some of the evidence has to come after the pick).
#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "measure/statistics.hpp"
#include "plan/plan.hpp"

#include "results/results_document.hpp"
#include "tune/tuner.hpp"

namespace commtune {

// Re-measure rounds the finalists' re-measure runs after the sweep at every size, whatever the
// race counted: the race's rounds picked the finalists, so these are the ones that did not.
inline constexpr std::size_t kFreshRemeasureRounds = 2;

struct RaceRounds {
  // One case per (setting, placement, round) at the counted sizes, round by round, each holding
  // the round's median as its time_us.median, in the order sweep/confirm_round's fold_rounds
  // expects (a setting's rounds in round order).
  std::vector<CaseResult> cases;
  std::map<SizeKey, std::size_t> counted;  // finalist size -> rounds counted there (sizes with none absent)
};

// A case's rounds (round 0 first) as one case: the samples pooled; the first round that did not
// measure ok decides. Each of the first `side_by_side` rounds' medians is kept in
// race_round_medians_us (the rounds that ran side by side, from round 0).
CaseResult pool_race_rounds(const std::vector<CaseResult>& rounds, std::size_t side_by_side);

// Racing's round 0, for case `c` of `plan`: the fastest (least median interval high end) of the
// other settings' cases at its collective, size and placement that `rounds` (by plan case index)
// holds from this round alone, measured ok, in seconds; none where there is none yet, and for a
// grouped case (its figures on the first rank are its slowest group's, not the samples every
// rank's sampler saw, and every rank must take the same stop decision).
std::optional<SampleStats> round_leader_s(const Case& c, const Plan& plan,
                                          const std::map<std::size_t, std::vector<CaseResult>>& rounds);

// `round`'s rule (racing's round 0) for case `c` of `plan`, stopping once the case is clearly slower
// than round_leader_s's case by the plan's decision rule.
StoppingRule with_round_leader(StoppingRule round, const Case& c, const Plan& plan,
                               const std::map<std::size_t, std::vector<CaseResult>>& rounds);

// `round`'s rule for a case measured again (a later racing round, a re-measure round), `first`
// being its first measurement: each sample stands for as many calls as there (its paced group or
// block; 1 where each call was timed alone). Unchanged where `first` did not measure ok or was
// timed in batch means.
StoppingRule with_first_block(StoppingRule round, const CaseResult& first);

// The rule of case `c` of `plan` in racing round `round` (`round_rule`, plan/race_schedule): round
// 0's with_round_leader; a later round's with_first_block, its first measurement being round 0's
// in `rounds` (unchanged where there is none).
StoppingRule race_case_rule(const StoppingRule& round_rule, std::size_t round, const Case& c,
                            const Plan& plan, const std::map<std::size_t, std::vector<CaseResult>>& rounds);

// From the swept cases' race_round_medians_us (the sweep's cases as kept in memory), for a
// re-measure of `rounds` rounds.
RaceRounds race_rounds(const ResultsDocument& swept, const std::vector<Finalists>& finalists,
                       std::size_t rounds);

}  // namespace commtune
