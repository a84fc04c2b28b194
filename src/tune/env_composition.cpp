#include "tune/export_plan.hpp"

#include <algorithm>

#include "knobs/environment_knobs.hpp"
#include "knobs/knob_scope.hpp"
#include "knobs/nccl_list_syntax.hpp"
#include "knobs/ompi_algorithms.hpp"

namespace commtune {
namespace {

struct Chosen {
  const Setting* setting;
  std::optional<Collective> collective;  // nullopt: process scope
};

std::vector<Chosen> chosen_settings(const Recommendation& rec) {
  std::vector<Chosen> out;
  for (const auto& c : rec.choices) {
    const Setting* s = rec.find_setting(c.setting);
    if (!s || s->is_default()) continue;
    out.push_back(
        {s, c.scope == "process" ? std::nullopt : std::optional<Collective>(parse_collective(c.scope))});
  }
  return out;
}

void add(std::vector<EnvEntry>& env, const std::string& name, const std::string& value,
         std::vector<std::string>& notes) {
  for (const auto& e : env)
    if (e.name == name) {
      if (e.value != value) notes.push_back(name + ": two choices set different values; kept " + e.value);
      return;
    }
  env.push_back({name, value});
}

std::string ompi_value(const std::string& knob, const std::string& value) {
  const auto c = ompi_knob_collective(knob);
  if (!c || !is_ompi_algorithm_knob(knob)) return value;
  return std::to_string(ompi_algorithm_number(*c, value).value_or(0));
}

std::vector<EnvEntry> mpi_environment(const std::vector<Chosen>& chosen, std::vector<std::string>& notes) {
  std::vector<EnvEntry> env;
  const bool forces = std::any_of(chosen.begin(), chosen.end(), [](const Chosen& c) {
    return std::any_of(c.setting->knobs.begin(), c.setting->knobs.end(),
                       [](const auto& k) { return ompi_knob_collective(k.first).has_value(); });
  });
  if (forces) add(env, "OMPI_MCA_coll_tuned_use_dynamic_rules", "1", notes);
  for (const Chosen& c : chosen)
    for (const auto& [knob, value] : c.setting->knobs)
      add(env, environment_variable_of(BackendKind::Mpi, knob), ompi_value(knob, value), notes);
  return env;
}

std::vector<Collective> measured_collectives(const Recommendation& rec) {
  std::vector<Collective> out;
  for (const auto& d : rec.sizes)
    if (std::find(out.begin(), out.end(), d.collective) == out.end()) out.push_back(d.collective);
  return out;
}

// NCCL_ALGO or NCCL_PROTO for every collective some choice sets, per-collective choices first.
std::optional<std::string> merged_list(const std::string& knob, const std::vector<Chosen>& chosen,
                                       const std::vector<Collective>& collectives) {
  const NcclListKind kind = knob == "NCCL_ALGO" ? NcclListKind::Algorithm : NcclListKind::Protocol;
  std::vector<NcclListEntry> entries;
  for (Collective c : collectives) {
    const auto own =
        std::find_if(chosen.begin(), chosen.end(), [&](const Chosen& x) { return x.collective == c; });
    const auto process =
        std::find_if(chosen.begin(), chosen.end(), [](const Chosen& x) { return !x.collective; });
    const Chosen* source = own != chosen.end() && own->setting->knobs.count(knob)           ? &*own
                           : process != chosen.end() && process->setting->knobs.count(knob) ? &*process
                                                                                            : nullptr;
    if (!source) continue;
    std::optional<NcclListEntry> entry = entry_for(parse_nccl_list(source->setting->knobs.at(knob), kind), c);
    if (!entry) continue;
    entry->function = nccl_function_name(c);
    entries.push_back(*entry);
  }
  if (entries.empty()) return std::nullopt;
  return format_nccl_list(entries);
}

std::vector<EnvEntry> nccl_environment(const Recommendation& rec, const std::vector<Chosen>& chosen,
                                       bool nccl_algo_proto, std::vector<std::string>& notes) {
  std::vector<EnvEntry> env;
  for (const Chosen& c : chosen)
    if (!c.collective)
      for (const auto& [knob, value] : c.setting->knobs)
        if (!is_per_collective_knob(knob)) add(env, knob, value, notes);
  std::vector<std::string> left_out;
  for (const std::string knob : {"NCCL_ALGO", "NCCL_PROTO"})
    if (const auto value = merged_list(knob, chosen, measured_collectives(rec))) {
      if (nccl_algo_proto)
        add(env, knob, *value, notes);
      else
        left_out.push_back(knob + "=" + *value);
    }
  if (!left_out.empty()) {
    std::string list;
    for (const auto& l : left_out) list += (list.empty() ? "" : " ") + l;
    notes.push_back("the env files leave out " + list +
                    ": per-size choices go through commtune's tuner plugin "
                    "(--format nccl-tuner); export --nccl-algo-env puts these debugging variables back");
  }
  return env;
}

}  // namespace

std::vector<EnvEntry> compose_environment(const Recommendation& rec, bool nccl_algo_proto,
                                          std::vector<std::string>& notes) {
  const std::vector<Chosen> chosen = chosen_settings(rec);
  switch (rec.backend) {
    case BackendKind::Mpi:
      return mpi_environment(chosen, notes);
    case BackendKind::Nccl:
      return nccl_environment(rec, chosen, nccl_algo_proto, notes);
  }
  return {};
}

}  // namespace commtune
