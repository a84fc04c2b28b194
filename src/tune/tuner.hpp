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

}  // namespace commtune
