#include "plan/config_loader.hpp"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/json_file.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxNameLength = 128;
constexpr std::size_t kMaxKnobValueLength = 4096;
constexpr std::size_t kMaxDescriptionLength = 4096;
constexpr std::int64_t kMaxRoot = 1 << 20;

const json& object_at(const json& value, const std::string& where) {
  if (!value.is_object()) bad_value(where, "an object", value);
  return value;
}

std::string text_at(const json& value, const std::string& path, std::size_t max_length) {
  std::string text = value_as<std::string>(value, path);
  if (text.size() > max_length)
    throw InputError(path + ": longer than " + std::to_string(max_length) + " characters");
  return text;
}

// A size: "4M" or a number of bytes.
std::uint64_t size_at(const json& value, const std::string& path) {
  if (value.is_number_integer()) return static_cast<std::uint64_t>(integer_in(value, path, 0, kMaxSizeBytes));
  if (!value.is_string()) bad_value(path, "a size: a number of bytes, or a string such as \"4M\"", value);
  const std::string text = value.get<std::string>();
  return parsed_at(path, [&] { return parse_size(text); });
}

template <typename Enum, typename Parse>
std::vector<Enum> unique_list_at(const json& value, const std::string& path, Parse&& parse) {
  if (!value.is_array() || value.empty()) bad_value(path, "a non-empty list", value);
  std::vector<Enum> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    const std::string name = value_as<std::string>(value[i], item_path);
    const Enum e = parsed_at(item_path, [&] { return parse(name); });
    if (std::find(out.begin(), out.end(), e) != out.end())
      throw InputError(item_path + ": " + quote_text(name) + " is listed twice");
    out.push_back(e);
  }
  return out;
}

std::vector<Collective> collectives_at(const json& value, const std::string& path) {
  return unique_list_at<Collective>(value, path,
                                    [](const std::string& name) { return parse_collective(name); });
}

double fraction_at(const json& value, const std::string& path) {
  const double f = number_in(value, path, 0, 1);
  if (f == 0) bad_value(path, "a fraction above 0, at most 1", value);
  return f;
}

void apply_stopping(const json& sweep, StoppingRule& rule, const std::string& where) {
  const auto path = [&](const char* key) { return member_path(where, key); };
  if (sweep.contains("iterations") && !sweep["iterations"].is_null())
    rule.fixed_iterations =
        static_cast<std::size_t>(integer_in(sweep["iterations"], path("iterations"), 1, kMaxIterations));
  if (sweep.contains("warmup"))
    rule.warmup_iterations =
        static_cast<std::size_t>(integer_in(sweep["warmup"], path("warmup"), 0, kMaxWarmup));
  if (sweep.contains("noise_target"))
    rule.target_relative_ci = fraction_at(sweep["noise_target"], path("noise_target"));
  if (sweep.contains("min_samples"))
    rule.min_samples =
        static_cast<std::size_t>(integer_in(sweep["min_samples"], path("min_samples"), 1, kMaxIterations));
  if (sweep.contains("min_time"))
    rule.min_time_s = number_in(sweep["min_time"], path("min_time"), 0, kMaxCaseSeconds);
  if (sweep.contains("max_time")) {
    rule.max_time_s = number_in(sweep["max_time"], path("max_time"), 0, kMaxCaseSeconds);
    if (rule.max_time_s == 0)
      bad_value(path("max_time"), "a number of seconds above 0, at most 3600", sweep["max_time"]);
  }
}

void apply_sizes(const json& sweep, SizeRange& sizes, const std::string& where) {
  const auto path = [&](const char* key) { return member_path(where, key); };
  if (sweep.contains("factor") && sweep.contains("step_bytes"))
    throw InputError(where + ": give factor or step_bytes, not both");
  if (sweep.contains("min_bytes")) sizes.min_bytes = size_at(sweep["min_bytes"], path("min_bytes"));
  if (sweep.contains("max_bytes")) sizes.max_bytes = size_at(sweep["max_bytes"], path("max_bytes"));
  if (sweep.contains("factor")) sizes.factor = number_in(sweep["factor"], path("factor"), 1, kMaxSizeFactor);
  if (sweep.contains("step_bytes")) {
    sizes.step_bytes = size_at(sweep["step_bytes"], path("step_bytes"));
    sizes.factor = 1.0;  // as -i alone: an additive step
  }
}

void apply_sweep(const json& sweep, SweepOptions& options, const std::string& where) {
  object_at(sweep, where);
  reject_unknown_keys(sweep,
                      {"min_bytes", "max_bytes", "factor", "step_bytes", "collectives", "dtype", "op", "root",
                       "placements", "check", "iterations", "warmup", "noise_target", "min_samples",
                       "min_time", "max_time", "margin", "groups"},
                      where);
  const auto path = [&](const char* key) { return member_path(where, key); };
  apply_sizes(sweep, options.sizes, where);
  if (sweep.contains("collectives"))
    options.collectives = collectives_at(sweep["collectives"], path("collectives"));
  if (sweep.contains("dtype")) {
    const std::string name = value_as<std::string>(sweep["dtype"], path("dtype"));
    options.dtype = parsed_at(path("dtype"), [&] { return parse_data_type(name); });
  }
  if (sweep.contains("op")) {
    const std::string name = value_as<std::string>(sweep["op"], path("op"));
    options.op = parsed_at(path("op"), [&] { return parse_reduce_op(name); });
  }
  if (sweep.contains("root"))
    options.root = static_cast<int>(integer_in(sweep["root"], path("root"), 0, kMaxRoot));
  if (sweep.contains("check")) options.check = value_as<bool>(sweep["check"], path("check"));
  if (sweep.contains("placements"))
    options.placements =
        unique_list_at<Placement>(sweep["placements"], path("placements"),
                                  [](const std::string& name) { return parse_placement(name); });
  if (sweep.contains("groups"))
    options.groups = unique_list_at<GroupSpec>(
        sweep["groups"], path("groups"), [&](const std::string& name) { return parse_group_spec(name, ""); });
  apply_stopping(sweep, options.stopping, where);
  if (sweep.contains("margin"))
    options.decision = decision_rule(number_in(sweep["margin"], path("margin"), 0, 1), path("margin"));
}

std::string knob_value_at(const json& value, const std::string& path) {
  if (value.is_number_integer()) return value.dump();
  if (value.is_number_float()) return value.dump();
  if (!value.is_string()) bad_value(path, "a string or number", value);
  return text_at(value, path, kMaxKnobValueLength);
}

Setting parse_setting(const json& entry, const std::string& where) {
  object_at(entry, where);
  reject_unknown_keys(entry, {"name", "description", "knobs", "collectives"}, where);
  Setting setting;
  if (!entry.contains("name")) throw InputError(where + ": a setting needs a name");
  setting.name = text_at(entry["name"], member_path(where, "name"), kMaxNameLength);
  if (entry.contains("description"))
    setting.description =
        text_at(entry["description"], member_path(where, "description"), kMaxDescriptionLength);
  if (entry.contains("knobs")) {
    const std::string knobs_path = member_path(where, "knobs");
    for (const auto& knob : object_at(entry["knobs"], knobs_path).items()) {
      const std::string path = member_path(knobs_path, knob.key());
      if (knob.key().empty() || knob.key().size() > kMaxNameLength)
        throw InputError(path + ": a knob name has 1 to " + std::to_string(kMaxNameLength) + " characters");
      setting.knobs[knob.key()] = knob_value_at(knob.value(), path);
    }
  }
  if (entry.contains("collectives"))
    setting.collectives = collectives_at(entry["collectives"], member_path(where, "collectives"));
  return setting;
}

std::optional<BackendKind> backend_at(const json& value, const std::string& path) {
  return parse_backend_or_auto(value_as<std::string>(value, path), path);
}

std::string list_of(const std::vector<Collective>& collectives) {
  std::string out;
  for (Collective c : collectives) out += (out.empty() ? "" : ",") + std::string(name_of(c));
  return out;
}

}  // namespace

SweepConfig parse_config(const json& document, const std::string& origin) {
  if (!document.is_object()) throw InputError(origin + ": the config must be a JSON object");
  reject_unknown_keys(document, {"name", "description", "backend", "sweep", "settings"}, origin);
  const auto path = [&](const char* key) { return origin + ": " + key; };
  SweepConfig config;
  if (document.contains("name")) config.name = text_at(document["name"], path("name"), kMaxNameLength);
  if (document.contains("description"))
    config.description = text_at(document["description"], path("description"), kMaxDescriptionLength);
  if (document.contains("backend")) config.options.backend = backend_at(document["backend"], path("backend"));
  if (document.contains("sweep")) {
    apply_sweep(document["sweep"], config.options, path("sweep"));
    config.groups_given = document["sweep"].contains("groups");
  }
  if (document.contains("settings")) {
    const json& settings = document["settings"];
    if (!settings.is_array()) bad_value(path("settings"), "a list of settings", settings);
    for (std::size_t i = 0; i < settings.size(); ++i)
      config.settings.push_back(parse_setting(settings[i], path("settings") + "[" + std::to_string(i) + "]"));
  }
  parsed_at(origin, [&] {
    validate_setting_names(config.settings);
    for (const auto& s : config.settings)
      if (s.name == kDefaultSettingName && !s.is_default())
        throw InputError("the setting named 'default' is the baseline and must force nothing (no knobs)");
    return 0;
  });
  return config;
}

SweepConfig load_config_file(const std::string& path) {
  SweepConfig config = parse_config(read_json_file(path, "config file"), path);
  config.origin = excerpt(path, 200);
  return config;
}

void check_settings_apply(SweepConfig& config) {
  const std::vector<std::string>& named = config.options.only_settings;
  std::vector<Setting> kept;
  for (auto& s : config.settings) {
    const bool swept =
        s.collectives.empty() || std::any_of(s.collectives.begin(), s.collectives.end(), [&](Collective c) {
          return std::find(config.options.collectives.begin(), config.options.collectives.end(), c) !=
                 config.options.collectives.end();
        });
    if (swept) {
      kept.push_back(std::move(s));
      continue;
    }
    if (std::find(named.begin(), named.end(), s.name) != named.end())
      throw InputError("setting " + quote_text(s.name) + " (--setting) runs only on " +
                       list_of(s.collectives) + ", which this sweep does not measure (collectives: " +
                       list_of(config.options.collectives) + "); add its collective to --collectives");
    config.options.left_out_settings.push_back(s.name);
  }
  config.settings = std::move(kept);
}

std::vector<Setting> select_settings(const std::vector<Setting>& configured,
                                     const std::vector<std::string>& only) {
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
      throw InputError("--setting " + quote_text(name) + " is not a setting of this config");
  if (only.empty()) return chosen;
  std::vector<Setting> filtered;
  for (const auto& s : chosen)
    if (std::find(only.begin(), only.end(), s.name) != only.end()) filtered.push_back(s);
  return filtered;
}

}  // namespace commtune
