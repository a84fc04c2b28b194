#include "tune/recommendation_json.hpp"

#include <set>
#include <tuple>
#include <utility>

#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/plausible_bounds.hpp"
#include "results/results_json.hpp"
#include "knobs/knob_grammar.hpp"
#include "plan/groups.hpp"

namespace commtune {

using nlohmann::json;

namespace {

json to_json(const SizeDecision& d) {
  json j{{"collective", name_of(d.collective)},
         {"bytes", d.bytes},
         {"winner", d.winner},
         {"gain", d.gain},
         {"default_us", d.default_us},
         {"winner_us", d.winner_us},
         {"confirmed", d.confirmed},
         {"reason", d.reason}};
  if (d.nccl_chose) j["nccl_chose"] = to_json(*d.nccl_chose);
  if (!d.group.is_world())
    j["group"] = {{"spec", d.group.spec}, {"nranks", d.group.nranks}, {"nnodes", d.group.nnodes}};
  return j;
}

json to_json(const RangeGain& g) {
  json j{{"collective", name_of(g.collective)},
         {"min_bytes", g.min_bytes},
         {"max_bytes", g.max_bytes},
         {"min_gain", g.min_gain},
         {"max_gain", g.max_gain},
         {"sizes", g.sizes}};
  if (g.group != "world") j["group"] = g.group;
  return j;
}

json to_json(const JobChoice& c) {
  json gains = json::array();
  for (const auto& g : c.gains) gains.push_back(to_json(g));
  return json{{"scope", c.scope},           {"setting", c.setting}, {"objective_gain", c.objective_gain},
              {"weight_won", c.weight_won}, {"gains", gains},       {"why", c.why}};
}

constexpr std::int64_t kMaxBytes = 1ll << 50;

using Path = std::string;

Path item_path(const Path& list, std::size_t i) { return list + "[" + std::to_string(i) + "]"; }

// Fields of the document itself (`top`) have the path "ORIGIN: KEY", nested ones "WHERE.KEY".
Path field_path(const Path& where, const char* key, bool top) {
  return top ? where + ": " + key : member_path(where, key);
}

const json& list_field(const json& j, const char* key, const Path& where, bool top = false) {
  const json& value = required_field(j, key, where);
  if (!value.is_array()) bad_value(field_path(where, key, top), "a list", value);
  return value;
}

Collective collective_field(const json& j, const Path& where) {
  const std::string name = field_as<std::string>(j, "collective", where);
  return parsed_at(member_path(where, "collective"), [&] { return parse_collective(name); });
}

std::uint64_t bytes_field(const json& j, const char* key, const Path& where) {
  return static_cast<std::uint64_t>(
      integer_in(required_field(j, key, where), member_path(where, key), 1, kMaxBytes));
}

// A fraction of time saved: below 1 (saving all of it is impossible); negative when slower.
double gain_field(const json& j, const char* key, const Path& where) {
  const json& value = required_field(j, key, where);
  if (!value.is_number() || !(value.get<double>() > -1e6 && value.get<double>() < 1))
    bad_value(member_path(where, key), "a fraction of the time saved, below 1", value);
  return value.get<double>();
}

double time_field(const json& j, const char* key, const Path& where) {
  return number_in(required_field(j, key, where), member_path(where, key), 0, kMaxPlausibleTimeUs);
}

// A decision for the communicators of a group spec other than world: its spec, and the ranks and
// nodes of the communicator it holds for.
GroupShape group_field(const json& j, const Path& where) {
  if (!j.contains("group")) return GroupShape{};
  const Path path = member_path(where, "group");
  const json& g = j.at("group");
  if (!g.is_object()) bad_value(path, "an object {spec, nranks, nnodes}", g);
  return GroupShape{
      .spec = written_group_name(field_as<std::string>(g, "spec", path), member_path(path, "spec")),
      .nranks = static_cast<int>(
          integer_in(required_field(g, "nranks", path), member_path(path, "nranks"), 2, kMaxPlausibleCount)),
      .nnodes = static_cast<int>(
          integer_in(required_field(g, "nnodes", path), member_path(path, "nnodes"), 1, kMaxPlausibleCount))};
}

SizeDecision size_from_json(const json& j, const Path& where) {
  SizeDecision d{.collective = collective_field(j, where),
                 .bytes = bytes_field(j, "bytes", where),
                 .winner = field_as<std::string>(j, "winner", where),
                 .gain = gain_field(j, "gain", where),
                 .default_us = time_field(j, "default_us", where),
                 .winner_us = time_field(j, "winner_us", where),
                 .confirmed = field_as<bool>(j, "confirmed", where),
                 .reason = field_as<std::string>(j, "reason", where),
                 .nccl_chose = std::nullopt,
                 .group = group_field(j, where)};
  if (j.contains("nccl_chose")) {
    d.nccl_chose = nccl_choice_from_json(j.at("nccl_chose"), member_path(where, "nccl_chose"));
    if (!d.nccl_chose->recorded)
      throw InputError(member_path(where, "nccl_chose") + ": only a recorded choice belongs here");
  }
  if (d.winner.empty()) return d;
  if (!(d.gain > 0))
    throw InputError(member_path(where, "gain") + ": a winner must save time (gain above 0)");
  if (!(d.winner_us > 0 && d.winner_us < d.default_us))
    throw InputError(where + ": a winner needs 0 < winner_us < default_us");
  return d;
}

RangeGain range_from_json(const json& j, const Path& where) {
  RangeGain g{.collective = collective_field(j, where),
              .min_bytes = bytes_field(j, "min_bytes", where),
              .max_bytes = bytes_field(j, "max_bytes", where),
              .min_gain = gain_field(j, "min_gain", where),
              .max_gain = gain_field(j, "max_gain", where),
              .sizes = static_cast<std::size_t>(integer_in(
                  required_field(j, "sizes", where), member_path(where, "sizes"), 1, kMaxPlausibleCount))};
  if (j.contains("group"))
    g.group = written_group_name(field_as<std::string>(j, "group", where), member_path(where, "group"));
  if (g.min_bytes > g.max_bytes) throw InputError(where + ": min_bytes is above max_bytes");
  if (g.min_gain > g.max_gain) throw InputError(where + ": min_gain is above max_gain");
  return g;
}

std::string scope_field(const json& j, const Path& where) {
  const std::string scope = field_as<std::string>(j, "scope", where);
  if (scope == "process") return scope;
  const Collective c = parsed_at(member_path(where, "scope"), [&] { return parse_collective(scope); });
  if (scope != name_of(c))
    bad_value(member_path(where, "scope"), "process or a collective's name", j["scope"]);
  return scope;
}

JobChoice choice_from_json(const json& j, const Path& where) {
  JobChoice c{scope_field(j, where),
              field_as<std::string>(j, "setting", where),
              gain_field(j, "objective_gain", where),
              number_in(required_field(j, "weight_won", where), member_path(where, "weight_won"), 0, 1),
              {},
              field_as<std::string>(j, "why", where)};
  const json& gains = list_field(j, "gains", where);
  for (std::size_t i = 0; i < gains.size(); ++i)
    c.gains.push_back(range_from_json(gains[i], item_path(member_path(where, "gains"), i)));
  return c;
}

std::vector<std::string> strings_field(const json& j, const char* key, const Path& origin) {
  const json& list = list_field(j, key, origin, true);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.size(); ++i)
    out.push_back(value_as<std::string>(list[i], item_path(origin + ": " + key, i)));
  return out;
}

std::map<std::string, std::string> disqualified_field(const json& j, const Path& origin) {
  const json& object = required_field(j, "disqualified", origin);
  const Path path = origin + ": disqualified";
  if (!object.is_object()) bad_value(path, "an object of SETTING: reason", object);
  std::map<std::string, std::string> out;
  for (const auto& item : object.items())
    out[item.key()] = value_as<std::string>(item.value(), member_path(path, item.key()));
  return out;
}

void read_header(const json& j, const Path& origin, Recommendation& rec) {
  rec.backend = parse_backend(top_field_as<std::string>(j, "backend", origin), origin + ": backend");
  rec.nranks = static_cast<int>(
      integer_in(required_field(j, "nranks", origin), origin + ": nranks", 1, kMaxPlausibleCount));
  rec.nnodes =
      static_cast<int>(integer_in(required_field(j, "nnodes", origin), origin + ": nnodes", 1, rec.nranks));
  rec.min_margin = number_in(required_field(j, "min_margin", origin), origin + ": min_margin", 0, 1);
  if (rec.min_margin == 1) bad_value(origin + ": min_margin", "a fraction from 0, below 1", j["min_margin"]);
  rec.objective = top_field_as<std::string>(j, "objective", origin);
  rec.confirmed = top_field_as<bool>(j, "confirmed", origin);
  rec.confirm_rounds = static_cast<std::size_t>(
      integer_in(required_field(j, "confirm_rounds", origin), origin + ": confirm_rounds", 0, 1000));
  rec.disqualified = disqualified_field(j, origin);
  rec.notes = strings_field(j, "notes", origin);
  if (j.contains("labels")) rec.labels = strings_field(j, "labels", origin);
  if (j.contains("incomplete")) rec.incomplete = top_field_as<bool>(j, "incomplete", origin);
}

void read_lists(const json& j, const Path& origin, Recommendation& rec) {
  const json& settings = list_field(j, "settings", origin, true);
  for (std::size_t i = 0; i < settings.size(); ++i)
    rec.settings.push_back(setting_from_json(settings[i], item_path(origin + ": settings", i)));
  parsed_at(origin + ": settings", [&] {
    validate_setting_names(rec.settings);
    return 0;
  });
  const json& sizes = list_field(j, "sizes", origin, true);
  for (std::size_t i = 0; i < sizes.size(); ++i)
    rec.sizes.push_back(size_from_json(sizes[i], item_path(origin + ": sizes", i)));
  const json& choices = list_field(j, "choices", origin, true);
  for (std::size_t i = 0; i < choices.size(); ++i)
    rec.choices.push_back(choice_from_json(choices[i], item_path(origin + ": choices", i)));
}

void check_names(const Recommendation& rec, const std::string& origin) {
  for (std::size_t i = 0; i < rec.settings.size(); ++i)
    for (const auto& knob : rec.settings[i].knobs)
      parsed_at(item_path(origin + ": settings", i) + ".knobs", [&] {
        validate_knob(rec.backend, knob.first, knob.second);
        return 0;
      });
  for (const auto& [name, reason] : rec.disqualified)
    if (!rec.find_setting(name))
      throw InputError(member_path(origin + ": disqualified", name) + ": not one of the settings");
  std::set<std::tuple<Collective, std::uint64_t, std::string>> sizes;
  for (std::size_t i = 0; i < rec.sizes.size(); ++i) {
    const SizeDecision& d = rec.sizes[i];
    const Path where = item_path(origin + ": sizes", i);
    if (!d.winner.empty() && !rec.find_setting(d.winner))
      throw InputError(where + ".winner: " + quote_text(d.winner) + " is not one of the settings");
    if (!sizes.insert({d.collective, d.bytes, d.group.spec}).second)
      throw InputError(where + ": this collective and size appear twice (for one group spec)");
  }
  std::set<std::string> scopes;
  for (std::size_t i = 0; i < rec.choices.size(); ++i) {
    const JobChoice& c = rec.choices[i];
    const Path where = item_path(origin + ": choices", i);
    if (!rec.find_setting(c.setting))
      throw InputError(where + ".setting: " + quote_text(c.setting) + " is not one of the settings");
    if (!scopes.insert(c.scope).second)
      throw InputError(where + ".scope: " + quote_text(c.scope) + " appears twice");
  }
}

}  // namespace

json to_json(const Recommendation& rec) {
  json j{{"kind", "commtune-recommendation"},
         {"version", kRecommendationVersion},
         {"backend", name_of(rec.backend)},
         {"nranks", rec.nranks},
         {"nnodes", rec.nnodes},
         {"min_margin", rec.min_margin},
         {"objective", rec.objective},
         {"confirmed", rec.confirmed},
         {"confirm_rounds", rec.confirm_rounds},
         {"disqualified", rec.disqualified},
         {"notes", rec.notes}};
  if (!rec.labels.empty()) j["labels"] = rec.labels;
  if (rec.incomplete) j["incomplete"] = true;
  j["settings"] = json::array();
  for (const auto& s : rec.settings) j["settings"].push_back(commtune::to_json(s));
  j["sizes"] = json::array();
  for (const auto& d : rec.sizes) j["sizes"].push_back(to_json(d));
  j["choices"] = json::array();
  for (const auto& c : rec.choices) j["choices"].push_back(to_json(c));
  j["defaults_best"] = rec.defaults_best();
  return j;
}

bool is_recommendation_json(const json& j) {
  if (!j.is_object()) return false;
  const auto kind = j.find("kind");
  return kind != j.end() && kind->is_string() && *kind == "commtune-recommendation";
}

Recommendation recommendation_from_json(const json& j, const std::string& origin) {
  if (!is_recommendation_json(j))
    throw InputError(origin + ": not a commtune recommendation (no \"kind\": \"commtune-recommendation\")");
  const json& version = required_field(j, "version", origin);
  if (!version.is_number_integer() || version != kRecommendationVersion)
    bad_value(origin + ": version", "the integer " + std::to_string(kRecommendationVersion), version);
  Recommendation rec;
  read_header(j, origin, rec);
  read_lists(j, origin, rec);
  check_names(rec, origin);
  return rec;
}

}  // namespace commtune
