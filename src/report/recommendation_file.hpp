#pragma once
// Writes a recommendation (the tuner's JSON, for `commtune export`) to a file; one behaviour for
// `commtune tune --out` and the end-of-sweep tuning: InputError naming the file when it fails.
#include <string>

#include <nlohmann/json.hpp>

namespace commtune {

void write_recommendation_file(const std::string& path, const nlohmann::json& recommendation);

}  // namespace commtune
