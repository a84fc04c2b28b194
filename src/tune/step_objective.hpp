#pragma once
// The objective of `tune --workload` (issue 28): a training step's calls mapped onto the measured
// sizes, each weighing by its share of the step's communication time under the default, and a
// setting's expected change of that time. A call's size is matched exactly (collective, bytes,
// group spec), else to the nearest measured size of its collective and group on a log scale (said
// in a note); a call whose collective and group were not measured is left out (said too).
#include <string>
#include <vector>

#include "measure/decision.hpp"
#include "tune/case_index.hpp"
#include "tune/objective.hpp"

namespace commtune {

struct StepKey {
  SizeKey key;
  double count = 0;       // calls a step at this size
  double default_us = 0;  // the default's median there
};

struct StepWeights {
  std::vector<StepKey> keys;
  double default_step_us = 0;  // sum of count x default_us
  std::vector<std::string> notes;
};

StepWeights step_weights(const CaseIndex& index, const std::vector<ObjectiveCall>& step);

// The step's keys of some collectives only (a per-collective scope), their weights as they are.
StepWeights step_part(const StepWeights& weights, const std::vector<Collective>& collectives);

struct StepGain {
  double gain = 0;        // 1 - step time under the setting / under the default
  double weight_won = 0;  // share of the step's time at sizes where the setting is clearly faster
  bool measured = false;  // the setting was measured at some size of the step
};

// The setting's step time: at each size, count x its median where it is clearly faster or slower
// than the default (the one decision rule), else the default's (an undecided difference counts as
// none).
StepGain step_gain(const CaseIndex& index, const StepWeights& weights, const std::string& setting,
                   const DecisionRule& rule);

}  // namespace commtune
