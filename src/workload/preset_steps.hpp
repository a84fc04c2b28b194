#pragma once
// Each preset's step (workload/presets.cpp dispatches to them): its collectives in order, the
// framework defaults it used (written to the workload's source parameters) and its notes.
// presets_data_parallel.cpp: ddp, zero1, zero2, zero3, fsdp; presets_megatron.cpp: megatron-tp.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/preset_inputs.hpp"
#include "workload/workload.hpp"

namespace commtune {

struct PresetStep {
  std::vector<WorkloadCollective> collectives;
  nlohmann::json defaults = nlohmann::json::object();  // the framework's numbers it used
  std::vector<std::string> notes;
};

// Appends collectives to a step; a size beyond what one collective may carry, or a count beyond
// what a step may hold, is an InputError naming `blame` (the flag that made it so).
class StepBuilder {
 public:
  explicit StepBuilder(const PresetInputs& in) : in_(in) {}
  void add(Collective c, std::uint64_t bytes, const GroupSpec& group, int group_ranks, std::uint64_t count,
           std::string label, const std::string& blame);
  PresetStep& step() { return step_; }
  const PresetInputs& inputs() const { return in_; }

 private:
  const PresetInputs& in_;
  PresetStep step_;
};

// The parameters one tensor-parallel rank holds (--params / --tp), and one layer's share of them
// (/ --layers): an InputError naming the flag when either does not divide.
std::uint64_t params_per_rank(const PresetInputs& in);
std::uint64_t params_per_layer(const PresetInputs& in);

PresetStep ddp_step(const PresetInputs& in);
PresetStep zero12_step(const PresetInputs& in, int stage);
PresetStep zero3_step(const PresetInputs& in);
PresetStep fsdp_step(const PresetInputs& in);
PresetStep megatron_tp_step(const PresetInputs& in);

}  // namespace commtune
