#pragma once
// Writes a recommendation (the tuner's JSON, for `commtune export`) to a file; one behaviour for
// `commtune tune --out` and the end-of-sweep tuning: core/output_file's rules (no overwrite
// unless forced, no symlink, never over an input, atomic), InputError naming the file.
#include <string>

#include <nlohmann/json.hpp>

#include "core/output_file.hpp"

namespace commtune {

void write_recommendation_file(const std::string& path, const nlohmann::json& recommendation,
                               const OutputPolicy& policy);

}  // namespace commtune
