#pragma once
// JSON form of the results model (docs/results-schema.md). Parsing validates and throws
// InputError naming the field, so a damaged results file is a clear message, not a crash.
#include <nlohmann/json.hpp>

#include "plan/setting.hpp"
#include "plan/sweep_options.hpp"
#include "results/case_result.hpp"

namespace commtune {

inline constexpr int kResultsSchemaVersion = 1;

nlohmann::json to_json(const SampleStats& stats);
nlohmann::json to_json(const CaseResult& result);
nlohmann::json to_json(const Setting& setting);
nlohmann::json to_json(const SweepOptions& options);

SampleStats stats_from_json(const nlohmann::json& j, const std::string& where);
CaseResult case_from_json(const nlohmann::json& j, const std::string& where);
Setting setting_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
