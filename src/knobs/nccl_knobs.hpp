#pragma once
// The NCCL knobs a setting may carry, checked before anything is launched: a name commtune does
// not know, a value NCCL would refuse, or an NCCL_ALGO x NCCL_PROTO choice that leaves a
// collective of the sweep with nothing to run is an InputError (exit 2), never a hung cluster.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "plan/setting.hpp"

namespace commtune {

// Knobs applied per communicator through ncclConfig_t instead of the environment (an environment
// variable would win over the config and stay cached for the process).
bool is_config_knob(std::string_view name);

// A knob's value check: throws InputError saying what is wrong with the value.
using KnobCheck = std::function<void(const std::string& value)>;
using KnobChecks = std::map<std::string, KnobCheck, std::less<>>;

// Every knob of `setting`, for the collectives of the sweep it applies to; `extra` adds knobs
// beyond NCCL's own (the test build's fault knob; the product has none).
void validate_nccl_setting(const Setting& setting, const std::vector<Collective>& sweep_collectives,
                           const KnobChecks& extra = {});

}  // namespace commtune
