#pragma once
// Racing's rule for one (collective, size), on what its settings measured so far (pooled over
// the rounds): the best setting is the one with the least median time over the placements; a
// setting is dropped when the tuner's own rule, with that setting as the baseline, makes the best
// one win against it (in every placement disjoint median CIs and a gain of at least max(margin,
// noise floor)): so a dropped default is one the tuner finds beaten. The race there is
// decided when one setting is left, or when every survivor is practically equal to the best
// (in each placement |change| + noise floor <= margin: no more sampling can make it win or lose
// by the margin). A setting that failed or produced wrong data leaves the race unmarked: its
// status says why. Pure logic: no MPI, no clock.
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
  std::string best;                    // empty when no setting measured ok
  std::vector<std::string> survivors;  // still in the race (the best first)
  std::vector<RaceDrop> dropped;       // clearly slower than the best
  bool decided = false;                // nothing left to race for at this size
};

// `alive`: the settings still in the race at `key` (each has its cases in `index`).
RaceVerdict race_verdict(const CaseIndex& index, const SizeKey& key, const std::vector<std::string>& alive,
                         const DecisionRule& rule);

}  // namespace commtune
