#pragma once
// The tuner (docs/tuning.md): per (collective, size) a candidate wins only if it is
// clearly faster than the default (disjoint median CIs and a gain >= max(margin, noise floor))
// in every placement, never if it produced wrong data or failed anywhere; ties keep the default.
// With a confirmation (the finalists and the default re-measured in a fresh interleaved round),
// a winner must win there too, and the figures reported are the confirmation's.
#include <vector>

#include "results/results_document.hpp"
#include <nlohmann/json.hpp>

#include "tune/case_index.hpp"
#include "tune/recommendation.hpp"
#include "tune/tune_options.hpp"

namespace commtune {

struct Finalists {
  SizeKey key;
  std::vector<std::string> settings;  // best first, at most TuneOptions::max_finalists
};

// Finalists travel from rank 0 to every rank (sweep/confirm_round) through this codec:
// {"collective": NAME, "bytes": N, "settings": [...]}.
void to_json(nlohmann::json& j, const Finalists& f);
void from_json(const nlohmann::json& j, Finalists& f);

// The candidates worth re-measuring: those that pass the rule in the sweep.
std::vector<Finalists> pick_finalists(const ResultsDocument& sweep, const TuneOptions& options);

Recommendation tune(const ResultsDocument& sweep, const TuneOptions& options,
                    const ResultsDocument* confirmation = nullptr);

// Job-wide choices (job_choice.cpp): knobs that hold one value for the whole job are chosen
// once, on the explicit objective (a size range and per-collective weights): the weighted
// geometric mean of the time saved over the objective's sizes, where a size counts only when the
// difference is clear (a tie counts as no change). A setting is chosen when that mean saves at
// least the margin and it won (after re-measure, when there was one) at one size or more.
// Scopes: each collective for per-collective knobs (NCCL_ALGO/NCCL_PROTO,
// coll_tuned_<coll>_algorithm), and "process" for everything else.
//
// Appends one JobChoice per scope that has candidates to rec.choices (uses rec.sizes and
// rec.settings).
void choose_job_settings(const CaseIndex& index, const TuneOptions& options, Recommendation& rec);

}  // namespace commtune
