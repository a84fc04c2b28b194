#include "plan/config_loader.hpp"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace commtune {
namespace {

using nlohmann::json;

void reject_unknown_keys(const json& object, const std::set<std::string>& known, const std::string& where) {
  for (const auto& item : object.items())
    if (!known.count(item.key())) throw InputError(where + ": unknown key '" + item.key() + "'");
}

std::string as_string(const json& value, const std::string& where) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number()) return value.dump();
  throw InputError(where + ": expected a string or number, got " + value.dump());
}

double as_number(const json& value, const std::string& where) {
  if (!value.is_number()) throw InputError(where + ": expected a number, got " + value.dump());
  return value.get<double>();
}

std::size_t as_count(const json& value, const std::string& where) {
  if (!value.is_number_integer() || value.get<long long>() < 0)
    throw InputError(where + ": expected a non-negative integer, got " + value.dump());
  return value.get<std::size_t>();
}

std::vector<Collective> parse_collective_list(const json& value, const std::string& where) {
  if (!value.is_array()) throw InputError(where + ": expected a list of collectives");
  std::vector<Collective> out;
  for (const auto& item : value) out.push_back(parse_collective(as_string(item, where)));
  return out;
}

void apply_stopping(const json& sweep, StoppingRule& rule, const std::string& where) {
  if (sweep.contains("iterations") && !sweep["iterations"].is_null())
    rule.fixed_iterations = as_count(sweep["iterations"], where + ".iterations");
  if (sweep.contains("warmup")) rule.warmup_iterations = as_count(sweep["warmup"], where + ".warmup");
  if (sweep.contains("noise_target")) rule.target_relative_ci = as_number(sweep["noise_target"], where + ".noise_target");
  if (sweep.contains("min_samples")) rule.min_samples = as_count(sweep["min_samples"], where + ".min_samples");
  if (sweep.contains("min_time")) rule.min_time_s = as_number(sweep["min_time"], where + ".min_time");
  if (sweep.contains("max_time")) rule.max_time_s = as_number(sweep["max_time"], where + ".max_time");
}

void apply_sweep(const json& sweep, SweepOptions& options, const std::string& where) {
  reject_unknown_keys(sweep,
                      {"min_bytes", "max_bytes", "factor", "step_bytes", "collectives", "dtype", "op", "root",
                       "placements", "check", "iterations", "warmup", "noise_target", "min_samples", "min_time",
                       "max_time"},
                      where);
  if (sweep.contains("min_bytes")) options.sizes.min_bytes = parse_size(as_string(sweep["min_bytes"], where));
  if (sweep.contains("max_bytes")) options.sizes.max_bytes = parse_size(as_string(sweep["max_bytes"], where));
  if (sweep.contains("factor")) options.sizes.factor = as_number(sweep["factor"], where + ".factor");
  if (sweep.contains("step_bytes")) options.sizes.step_bytes = parse_size(as_string(sweep["step_bytes"], where));
  if (sweep.contains("collectives")) options.collectives = parse_collective_list(sweep["collectives"], where);
  if (sweep.contains("dtype")) options.dtype = parse_data_type(as_string(sweep["dtype"], where));
  if (sweep.contains("op")) options.op = parse_reduce_op(as_string(sweep["op"], where));
  if (sweep.contains("root")) options.root = static_cast<int>(as_count(sweep["root"], where + ".root"));
  if (sweep.contains("check")) {
    if (!sweep["check"].is_boolean()) throw InputError(where + ".check: expected true or false");
    options.check = sweep["check"].get<bool>();
  }
  if (sweep.contains("placements")) {
    options.placements.clear();
    for (const auto& p : sweep["placements"]) options.placements.push_back(parse_placement(as_string(p, where)));
  }
  apply_stopping(sweep, options.stopping, where);
}

Setting parse_setting(const json& entry, const std::string& where) {
  if (!entry.is_object()) throw InputError(where + ": each setting must be an object");
  reject_unknown_keys(entry, {"name", "description", "knobs", "collectives"}, where);
  Setting setting;
  if (!entry.contains("name")) throw InputError(where + ": a setting needs a name");
  setting.name = as_string(entry["name"], where + ".name");
  if (entry.contains("description")) setting.description = as_string(entry["description"], where);
  if (entry.contains("knobs")) {
    if (!entry["knobs"].is_object()) throw InputError(where + ".knobs: expected an object of KEY: value");
    for (const auto& knob : entry["knobs"].items())
      setting.knobs[knob.key()] = as_string(knob.value(), where + ".knobs." + knob.key());
  }
  if (entry.contains("collectives")) setting.collectives = parse_collective_list(entry["collectives"], where);
  return setting;
}

}  // namespace

SweepConfig parse_config(const json& document, const std::string& origin) {
  if (!document.is_object()) throw InputError(origin + ": the config must be a JSON object");
  reject_unknown_keys(document, {"name", "description", "backend", "sweep", "settings"}, origin);
  SweepConfig config;
  if (document.contains("name")) config.name = as_string(document["name"], origin);
  if (document.contains("description")) config.description = as_string(document["description"], origin);
  if (document.contains("backend")) config.options.backend = as_string(document["backend"], origin);
  if (document.contains("sweep")) apply_sweep(document["sweep"], config.options, origin + ": sweep");
  if (document.contains("settings")) {
    if (!document["settings"].is_array()) throw InputError(origin + ": settings must be a list");
    for (std::size_t i = 0; i < document["settings"].size(); ++i)
      config.settings.push_back(parse_setting(document["settings"][i], origin + ": settings[" + std::to_string(i) + "]"));
  }
  validate_setting_names(config.settings);
  return config;
}

SweepConfig load_config_file(const std::string& path) {
  return parse_config(read_json_file(path, "config file"), path);
}

std::vector<Setting> select_settings(const std::vector<Setting>& configured, const std::vector<std::string>& only) {
  std::vector<Setting> chosen;
  for (const auto& s : configured)
    if (s.name == kDefaultSettingName && !s.is_default())
      throw InputError("the setting named 'default' is the baseline and must force nothing (no knobs)");
  const bool has_default = std::any_of(configured.begin(), configured.end(),
                                       [](const Setting& s) { return s.name == kDefaultSettingName; });
  if (!has_default) chosen.push_back(Setting{kDefaultSettingName, "nothing forced", {}, {}});
  for (const auto& s : configured) chosen.push_back(s);
  for (const auto& name : only)
    if (std::none_of(chosen.begin(), chosen.end(), [&](const Setting& s) { return s.name == name; }))
      throw InputError("--setting '" + name + "' is not a setting of this config");
  if (only.empty()) return chosen;
  std::vector<Setting> filtered;
  for (const auto& s : chosen)
    if (std::find(only.begin(), only.end(), s.name) != only.end()) filtered.push_back(s);
  return filtered;
}

}  // namespace commtune
