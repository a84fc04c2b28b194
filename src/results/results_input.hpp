#pragma once
// A results file as compare reads it: commtune's results JSON (docs/results-schema.md) or
// nccl-tests' own JSON output (-J, results/nccl_tests_json.hpp), told apart by their fields.
// Either way validated before use; a file that is neither is an InputError naming it.
#include <string>

#include "results/results_document.hpp"

namespace commtune {

ResultsDocument load_any_results(const std::string& path);

// Whether a document came from nccl-tests' JSON.
bool from_nccl_tests(const ResultsDocument& doc);

}  // namespace commtune
