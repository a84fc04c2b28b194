#pragma once
// Reads configs/*.json: {"name", "description", "backend", "sweep": {...}, "settings": [...]}.
// Unknown keys are errors, so that a typo never silently changes a sweep.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "plan/sweep_options.hpp"

namespace commtune {

SweepConfig load_config_file(const std::string& path);
SweepConfig parse_config(const nlohmann::json& document, const std::string& origin);

// The settings to run: the config's, filtered by --setting, with a default setting first.
std::vector<Setting> select_settings(const std::vector<Setting>& configured,
                                     const std::vector<std::string>& only);

}  // namespace commtune
