#pragma once
// Job-wide choices: knobs that hold one value for the whole job are chosen once, on the
// explicit objective (a size range and per-collective weights): the weighted geometric mean of
// the time saved over the objective's sizes, where a size counts only when the difference is
// clear (a tie counts as no change). A setting is chosen when that mean saves at least the
// margin and it won (after re-measure, when there was one) at one size or more. Scopes: each
// collective for per-collective knobs (NCCL_ALGO/NCCL_PROTO, coll_tuned_<coll>_algorithm), and
// "process" for everything else.
#include "tune/case_index.hpp"
#include "tune/recommendation.hpp"
#include "tune/tune_options.hpp"

namespace commtune {

// Appends one JobChoice per scope that has candidates to rec.choices (uses rec.sizes and
// rec.settings).
void choose_job_settings(const CaseIndex& index, const TuneOptions& options, Recommendation& rec);

}  // namespace commtune
