#pragma once
// A setting: a named set of knob values applied together (NCCL env vars, Open MPI MCA/MPI_T
// control variables). The default setting forces nothing and is the tuner's baseline.
#include <map>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace commtune {

struct Setting {
  std::string name;
  std::string description;
  std::map<std::string, std::string> knobs;  // knob name -> value, applied as one unit
  std::vector<Collective> collectives;       // empty: every collective of the sweep
  bool applies_to(Collective c) const;
  bool is_default() const { return knobs.empty(); }
};

inline constexpr const char* kDefaultSettingName = "default";

// Throws InputError when a name is empty, repeated, or not [A-Za-z0-9_.:+-]+.
void validate_setting_names(const std::vector<Setting>& settings);

}  // namespace commtune
