#pragma once
// The fields a backend may add to a measured case, written and read back: how it was sampled
// (iterations, batches, blocks), NCCL's own choice, each run's median, racing's mark, the last
// arrivals and each rank's CPU share, nccl-tests' figures. Absent when they do not apply, so a
// results file without them reads (and writes) exactly as before (docs/results-schema.md).
#include <string>

#include <nlohmann/json.hpp>

#include "results/case_result.hpp"

namespace commtune {

void put_optional_figures(nlohmann::json& j, const CaseResult& r);

// A case's cost (any status), written as "cost" where the sweep that ran it measured one.
nlohmann::json to_json(const CaseCost& cost);
// Reads "cost" where present: its four fields, each within its range; throws InputError naming
// `where` and the field otherwise.
void read_case_cost(const nlohmann::json& j, const std::string& where, CaseResult& r);

// Throws InputError naming `where` and the field on a value out of its range.
void read_optional_figures(const nlohmann::json& j, const std::string& where, CaseResult& r);

}  // namespace commtune
