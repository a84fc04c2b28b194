#pragma once
// Reads configs/*.json: {"name", "description", "backend", "sweep": {...}, "settings": [...]}.
// Unknown keys are errors, so that a typo never silently changes a sweep; so are values of the
// wrong type or out of range, a collective or placement listed twice, and a knob given twice
// (json_file). Messages name the file and the JSON path: "c.json: sweep.iterations: expected ...".
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "plan/sweep_options.hpp"

namespace commtune {

SweepConfig load_config_file(const std::string& path);
SweepConfig parse_config(const nlohmann::json& document, const std::string& origin);

// Leaves out the settings restricted to collectives the sweep does not run (a preset narrowed with
// --collectives), naming them in options.left_out_settings; refuses one named with --setting (it
// would measure nothing).
void check_settings_apply(SweepConfig& config);

// The settings to run: the config's, filtered by --setting, with a default setting first.
std::vector<Setting> select_settings(const std::vector<Setting>& configured,
                                     const std::vector<std::string>& only);

}  // namespace commtune
