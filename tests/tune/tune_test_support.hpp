#pragma once
// Helpers for the tuner tests: synthetic results documents built from sample vectors, fixture
// paths, and golden-file comparison (COMMTUNE_UPDATE_GOLDEN=1 rewrites the golden files).
#include <string>
#include <vector>

#include "results/results_document.hpp"

namespace commtune::testing {

std::string source_path(const std::string& relative);

// One case of `setting` at (collective, bytes, placement) summarised from samples (us).
CaseResult synthetic_case(const std::string& setting, Collective c, std::uint64_t bytes, Placement p,
                          const std::vector<double>& samples_us, int nranks = 4);

ResultsDocument synthetic_document(const std::string& backend, std::vector<Setting> settings,
                                   std::vector<CaseResult> cases);

// Compares `actual` with the golden file; on mismatch returns a message, else "".
std::string golden_mismatch(const std::string& golden_relative, const std::string& actual);

}  // namespace commtune::testing
