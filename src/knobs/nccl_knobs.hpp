#pragma once
// The NCCL knobs a setting may carry, checked before anything is launched: a name commtune does
// not know, a value NCCL would refuse, or an NCCL_ALGO x NCCL_PROTO choice that leaves a
// collective of the sweep with nothing to run is an InputError (exit 2), never a hung cluster.
#include <string>
#include <string_view>
#include <vector>

#include "plan/setting.hpp"

namespace commtune {

// [A-Z_][A-Z0-9_]*: what may be exported into a worker's environment.
bool is_valid_environment_name(std::string_view name);

// Knobs applied per communicator through ncclConfig_t instead of the environment (an environment
// variable would win over the config and stay cached for the process).
bool is_config_knob(std::string_view name);

// Every knob of `setting`, for the collectives of the sweep it applies to.
void validate_nccl_setting(const Setting& setting, const std::vector<Collective>& sweep_collectives);

// Names commtune accepts, for messages and docs.
std::vector<std::string> known_nccl_knobs();

}  // namespace commtune
