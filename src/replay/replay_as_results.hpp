#pragma once
// A replay's results as a sweep's (`commtune compare` on replay files, issue 28): every setting's
// calls as cases, one per distinct (collective, size, element type, op, group) of the step, their
// time a step (the calls of that case in one step, the slowest rank's, summed) over every replayed
// step, and each round's median as a run, so that compare judges each call of the step between two
// replays with its between-run rule, as it judges a repeated sweep's cases.
#include "replay/replay_record.hpp"
#include "results/results_document.hpp"

namespace commtune {

ResultsDocument replay_as_results(const ReplayRecord& record);

}  // namespace commtune
