#include "workload/presets.hpp"

#include <algorithm>
#include <functional>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "workload/preset_steps.hpp"
#include "workload/workload_checks.hpp"

namespace commtune {
namespace {

using Flags = std::vector<std::string>;

struct PresetRow {
  std::string name;
  Flags required;
  Flags optional;
  std::function<PresetStep(const PresetInputs&)> step;
};

const std::vector<PresetRow>& preset_rows() {
  static const Flags data_parallel{"--dtype", "--tp"};
  static const std::vector<PresetRow> rows{
      {"ddp", {"--params", "--dp"}, {"--dtype", "--tp", "--bucket"}, ddp_step},
      {"zero1",
       {"--params", "--dp"},
       data_parallel,
       [](const PresetInputs& in) { return zero12_step(in, 1); }},
      {"zero2",
       {"--params", "--dp"},
       data_parallel,
       [](const PresetInputs& in) { return zero12_step(in, 2); }},
      {"zero3", {"--params", "--layers", "--dp"}, data_parallel, zero3_step},
      {"fsdp", {"--params", "--layers", "--dp"}, data_parallel, fsdp_step},
      {"megatron-tp",
       {"--layers", "--hidden", "--seq", "--micro-batch", "--tp"},
       {"--dtype", "--dp", "--sequence-parallel"},
       megatron_tp_step},
  };
  return rows;
}

const PresetRow& row_of(const std::string& name) {
  const auto& rows = preset_rows();
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const PresetRow& r) { return r.name == name; });
  if (it != rows.end()) return *it;
  std::string known;
  for (const auto& r : rows) known += (known.empty() ? "" : ", ") + r.name;
  throw InputError("--preset: unknown preset " + quote_text(name) + " (known: " + known + ")");
}

// What the preset read, as the workload's source records it: the flags it takes, with their defaults.
nlohmann::json parameters_of(const PresetRow& row, const PresetInputs& in, const nlohmann::json& defaults) {
  nlohmann::json p{{"preset", row.name}, {"dtype", name_of(in.dtype)}, {"tp", in.tp}, {"dp", in.dp}};
  const auto takes = [&](const char* flag) {
    return std::count(row.required.begin(), row.required.end(), flag) +
               std::count(row.optional.begin(), row.optional.end(), flag) >
           0;
  };
  if (takes("--params")) p["params"] = in.params;
  if (takes("--layers")) p["layers"] = in.layers;
  if (takes("--hidden")) p["hidden"] = in.hidden;
  if (takes("--seq")) p["seq"] = in.seq;
  if (takes("--micro-batch")) p["micro_batch"] = in.micro_batch;
  if (takes("--sequence-parallel")) p["sequence_parallel"] = in.sequence_parallel;
  p["framework_defaults"] = defaults;
  return p;
}

}  // namespace

void StepBuilder::add(Collective c, std::uint64_t bytes, const GroupSpec& group, int group_ranks,
                      std::uint64_t count, std::string label, const std::string& blame) {
  if (bytes > static_cast<std::uint64_t>(kMaxWorkloadBytes))
    throw InputError(blame + ": one " + std::string(name_of(c)) + " of " + std::to_string(bytes) +
                     " bytes, more than one collective carries (" + std::to_string(kMaxWorkloadBytes) + ")");
  step_.collectives.push_back(WorkloadCollective{.collective = c,
                                                 .bytes = bytes,
                                                 .datatype = in_.dtype,
                                                 .op = ReduceOp::Sum,
                                                 .group = group,
                                                 .group_ranks = group_ranks,
                                                 .count = count,
                                                 .label = std::move(label)});
}

std::uint64_t params_per_rank(const PresetInputs& in) {
  const auto tp = static_cast<std::uint64_t>(in.tp);
  if (in.params % tp != 0)
    throw InputError("--tp: " + std::to_string(in.tp) + " does not divide --params " +
                     std::to_string(in.params) + " (each tensor-parallel rank holds params / tp)");
  return in.params / tp;
}

std::uint64_t params_per_layer(const PresetInputs& in) {
  const std::uint64_t per_rank = params_per_rank(in);
  if (per_rank % in.layers != 0)
    throw InputError("--layers: " + std::to_string(in.layers) + " does not divide the " +
                     std::to_string(per_rank) + " parameters of a rank (a layer holds params / layers)");
  return per_rank / in.layers;
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& r : preset_rows()) out.push_back(r.name);
    return out;
  }();
  return names;
}

const std::vector<std::string>& preset_value_flags() {
  static const std::vector<std::string> flags{"--params", "--layers", "--hidden", "--seq",   "--micro-batch",
                                              "--dtype",  "--tp",     "--dp",     "--bucket"};
  return flags;
}

Workload make_preset_workload(const PresetRequest& request) {
  const PresetRow& row = row_of(request.preset);
  const PresetInputs in = read_preset_inputs(request, row.required, row.optional);
  if (row.name != "megatron-tp" && in.dp < 2)
    throw InputError("--dp: the data-parallel group needs at least 2 ranks");
  PresetStep step = row.step(in);
  Workload w{.world_ranks = world_ranks_of(in),
             .collectives = std::move(step.collectives),
             .source = WorkloadSource{.kind = "preset",
                                      .files = {},
                                      .parameters = parameters_of(row, in, step.defaults),
                                      .skipped_lines = 0,
                                      .notes = std::move(step.notes)}};
  check_workload(w, "--preset " + row.name);
  return w;
}

}  // namespace commtune
