#include "replay/replay_record.hpp"

#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/json_file.hpp"
#include "core/message_text.hpp"
#include "replay/replay_figures_json.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxSettings = 1024;
constexpr std::size_t kMaxSamples = kMaxReplayRounds * kMaxReplaySteps;

std::string at(const std::string& list, std::size_t i) { return list + "[" + std::to_string(i) + "]"; }

// Seconds a step or a call took: finite and positive, at most a day.
std::vector<double> seconds_at(const json& value, const std::string& path) {
  const json& list = list_at(value, path);
  if (list.size() > kMaxSamples)
    throw InputError(path + ": more than " + std::to_string(kMaxSamples) + " steps");
  std::vector<double> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(number_in(list[i], at(path, i), 1e-12, 86400));
  return out;
}

json setting_json(const SettingReplay& s) {
  json calls = json::array();
  for (const auto& c : s.call_seconds) calls.push_back(c);
  json j{{"name", s.setting.name},
         {"knobs", s.setting.knobs},
         {"step_seconds", s.step_seconds},
         {"call_seconds", calls},
         {"round_medians", s.round_medians}};
  if (s.failure) j["failure"] = *s.failure;
  return j;
}

SettingReplay setting_from_json(const json& j, const std::string& where, std::size_t calls) {
  if (!j.is_object()) bad_value(where, "an object", j);
  reject_unknown_keys(
      j, {"name", "knobs", "step_seconds", "call_seconds", "round_medians", "failure", "figures"}, where);
  SettingReplay s;
  s.setting.name = field_as<std::string>(j, "name", where);
  if (s.setting.name.empty()) throw InputError(member_path(where, "name") + ": empty");
  s.setting.knobs = field_as<std::map<std::string, std::string>>(j, "knobs", where);
  s.step_seconds = seconds_at(required_field(j, "step_seconds", where), member_path(where, "step_seconds"));
  const std::string calls_path = member_path(where, "call_seconds");
  const json& per_call = list_at(required_field(j, "call_seconds", where), calls_path);
  if (!s.step_seconds.empty() && per_call.size() != calls)
    throw InputError(calls_path + ": " + std::to_string(per_call.size()) + " lists for " +
                     std::to_string(calls) + " calls of the workload");
  for (std::size_t c = 0; c < per_call.size(); ++c) {
    s.call_seconds.push_back(seconds_at(per_call[c], at(calls_path, c)));
    if (s.call_seconds.back().size() != s.step_seconds.size())
      throw InputError(at(calls_path, c) + ": " + std::to_string(s.call_seconds.back().size()) +
                       " steps, step_seconds has " + std::to_string(s.step_seconds.size()));
  }
  if (j.contains("round_medians"))
    s.round_medians = seconds_at(j["round_medians"], member_path(where, "round_medians"));
  if (j.contains("failure")) s.failure = field_as<std::string>(j, "failure", where);
  return s;
}

json options_json(const ReplayRecord& r) {
  return json{{"rounds", r.options.rounds},      {"steps", r.options.steps}, {"warmup", r.options.warmup},
              {"margin", r.options.rule.margin}, {"contend", r.contend},     {"rounds_run", r.rounds_run}};
}

void options_from_json(const json& j, const std::string& where, ReplayRecord& r) {
  if (!j.is_object()) bad_value(where, "an object", j);
  reject_unknown_keys(j, {"rounds", "steps", "warmup", "margin", "contend", "rounds_run"}, where);
  r.options.rounds = static_cast<std::size_t>(
      integer_in(required_field(j, "rounds", where), member_path(where, "rounds"), 1, kMaxReplayRounds));
  r.options.steps = static_cast<std::size_t>(
      integer_in(required_field(j, "steps", where), member_path(where, "steps"), 1, kMaxReplaySteps));
  r.options.warmup = static_cast<std::size_t>(
      integer_in(required_field(j, "warmup", where), member_path(where, "warmup"), 0, kMaxReplaySteps));
  r.options.rule =
      decision_rule(number_in(required_field(j, "margin", where), member_path(where, "margin"), 0, 1),
                    member_path(where, "margin"));
  r.contend = number_in(required_field(j, "contend", where), member_path(where, "contend"), 0, 1);
  r.rounds_run = static_cast<std::size_t>(integer_in(required_field(j, "rounds_run", where),
                                                     member_path(where, "rounds_run"), 0, kMaxReplayRounds));
}

std::optional<Price> price_from_json(const json& j, const std::string& where) {
  if (j.is_null()) return std::nullopt;
  if (!j.is_object()) bad_value(where, "an object or null", j);
  reject_unknown_keys(j, {"per_gpu_hour", "currency", "steps_per_run"}, where);
  Price p;
  p.per_gpu_hour =
      number_in(required_field(j, "per_gpu_hour", where), member_path(where, "per_gpu_hour"), 1e-9, 1e6);
  p.currency = field_as<std::string>(j, "currency", where);
  p.steps_per_run = static_cast<std::uint64_t>(integer_in(
      required_field(j, "steps_per_run", where), member_path(where, "steps_per_run"), 0, 1000000000000LL));
  parsed_at(where, [&] {
    check_price(p);
    return 0;
  });
  return p;
}

}  // namespace

bool is_replay_json(const json& j) { return j.is_object() && j.value("kind", json()) == kReplayKind; }

json to_json(const ReplayRecord& r) {
  json j{{"kind", std::string(kReplayKind)}, {"version", kReplayVersion},
         {"backend", name_of(r.backend)},    {"nranks", r.nranks},
         {"complete", r.complete},           {"workload_file", r.workload_file},
         {"workload", to_json(r.workload)},  {"options", options_json(r)}};
  j["price"] = r.options.price ? json{{"per_gpu_hour", r.options.price->per_gpu_hour},
                                      {"currency", r.options.price->currency},
                                      {"steps_per_run", r.options.price->steps_per_run}}
                               : json();
  j["settings"] = json::array();
  const auto figures = judge_replay(r.settings, r.options, r.nranks);
  for (std::size_t i = 0; i < r.settings.size(); ++i) {
    json s = setting_json(r.settings[i]);
    s["figures"] = to_json(figures[i]);
    j["settings"].push_back(s);
  }
  j["provenance"] = r.provenance;
  return j;
}

ReplayRecord replay_from_json(const json& j, const std::string& origin) {
  if (!is_replay_json(j))
    throw InputError(origin + ": not a commtune replay (no \"kind\": \"commtune-replay\")");
  reject_unknown_keys(j,
                      {"kind", "version", "backend", "nranks", "complete", "workload_file", "workload",
                       "options", "price", "settings", "provenance"},
                      origin);
  const json& version = required_field(j, "version", origin);
  if (!version.is_number_integer() || version != kReplayVersion)
    bad_value(origin + ": version", "the integer " + std::to_string(kReplayVersion), version);
  ReplayRecord r;
  const std::string backend = top_field_as<std::string>(j, "backend", origin);
  r.backend = parse_backend(backend, origin + ": backend");
  r.workload = workload_from_json(required_field(j, "workload", origin), origin + ": workload");
  r.nranks =
      static_cast<int>(integer_in(required_field(j, "nranks", origin), origin + ": nranks", 2, 1 << 24));
  if (r.nranks != r.workload.world_ranks)
    throw InputError(origin + ": nranks " + std::to_string(r.nranks) +
                     " differs from the workload's world_ranks");
  r.complete = top_field_as<bool>(j, "complete", origin);
  r.workload_file = top_field_as<std::string>(j, "workload_file", origin);
  options_from_json(required_field(j, "options", origin), origin + ": options", r);
  r.options.price = price_from_json(required_field(j, "price", origin), origin + ": price");
  const json& settings = list_at(required_field(j, "settings", origin), origin + ": settings");
  if (settings.empty() || settings.size() > kMaxSettings)
    throw InputError(origin + ": settings: expected 1 to " + std::to_string(kMaxSettings) + " settings");
  for (std::size_t i = 0; i < settings.size(); ++i)
    r.settings.push_back(
        setting_from_json(settings[i], at(origin + ": settings", i), r.workload.collectives.size()));
  if (j.contains("provenance")) r.provenance = j["provenance"];
  return r;
}

ReplayRecord read_replay_file(const std::string& path) {
  return replay_from_json(read_json_file(path, "replay results file"), path);
}

}  // namespace commtune
