#include "knobs/knob_scope.hpp"

#include <algorithm>

#include "knobs/ompi_algorithms.hpp"

namespace commtune {

bool is_per_collective_knob(const std::string& name) {
  return name == "NCCL_ALGO" || name == "NCCL_PROTO" || ompi_knob_collective(name).has_value();
}

bool is_per_collective_setting(const Setting& setting) {
  return !setting.knobs.empty() &&
         std::all_of(setting.knobs.begin(), setting.knobs.end(),
                     [](const auto& knob) { return is_per_collective_knob(knob.first); });
}

bool is_process_setting(const Setting& setting) {
  return !setting.knobs.empty() && !is_per_collective_setting(setting);
}

}  // namespace commtune
