#pragma once
// Racing's rule for one (collective, size), on what its settings measured so far (pooled over
// the rounds). It is an indifference-zone selection (Bechhofer; "epsilon-best arm"): the user needs
// a pick within the margin of the best, not to know which of two settings closer than the margin is
// faster.
// - The leader is the setting with the least median time, added over the placements.
// - A setting is dropped when the tuner's own rule, with that setting as the baseline, makes the
//   leader win against it (in every placement disjoint median CIs whose nearest ends are the margin
//   apart): so a dropped default is one the tuner finds beaten.
// - While the default races, a setting clearly slower than it in any placement is dropped too: the
//   tuner's rule needs a winner clearly faster than the default in every placement, so it can
//   never be the pick (an algorithm fast out of place and ten times slower in place).
// - The pick is the default while it survives, else the leader. The race there is decided when
//   one setting is left, or when the pick is shown, with confidence, to be at most the margin
//   slower than every other survivor (in every placement its change against it plus the noise
//   floor is within the margin: measure/decision's within_margin_of). The other survivors are then
//   settled: measured no more and never picked there, since the pick is within the margin of them.
// A setting that failed or produced wrong data leaves the race unmarked: its status says why.
// Pure logic: no MPI, no clock.
#include <string>
#include <vector>

#include "measure/decision.hpp"
#include "tune/case_index.hpp"

namespace commtune {

struct RaceDrop {
  std::string setting;
  std::string reason;
};

struct RaceVerdict {
  std::string best;                    // the leader; empty when no setting measured ok
  std::vector<std::string> survivors;  // still in the race (the best first)
  std::vector<RaceDrop> dropped;       // clearly slower than the best
  bool decided = false;                // nothing left to race for at this size
  std::string pick;                    // decided: the default if a survivor, else the best
  std::vector<RaceDrop> settled;       // decided: the survivors other than the pick, and why
};

// `alive`: the settings still in the race at `key` (each has its cases in `index`).
RaceVerdict race_verdict(const CaseIndex& index, const SizeKey& key, const std::vector<std::string>& alive,
                         const DecisionRule& rule);

}  // namespace commtune
