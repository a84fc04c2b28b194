#include "tune/recommendation_json.hpp"

#include "core/errors.hpp"
#include "results/results_json.hpp"
#include "knobs/knob_grammar.hpp"

namespace commtune {

using nlohmann::json;

namespace {

json to_json(const SizeDecision& d) {
  return json{{"collective", name_of(d.collective)}, {"bytes", d.bytes}, {"winner", d.winner}, {"gain", d.gain},
              {"default_us", d.default_us}, {"winner_us", d.winner_us}, {"confirmed", d.confirmed}, {"reason", d.reason}};
}

json to_json(const RangeGain& g) {
  return json{{"collective", name_of(g.collective)}, {"min_bytes", g.min_bytes}, {"max_bytes", g.max_bytes},
              {"min_gain", g.min_gain}, {"max_gain", g.max_gain}, {"sizes", g.sizes}};
}

json to_json(const JobChoice& c) {
  json gains = json::array();
  for (const auto& g : c.gains) gains.push_back(to_json(g));
  return json{{"scope", c.scope}, {"setting", c.setting}, {"objective_gain", c.objective_gain},
              {"weight_won", c.weight_won}, {"gains", gains}, {"why", c.why}};
}

SizeDecision size_from_json(const json& j) {
  return SizeDecision{parse_collective(j.at("collective").get<std::string>()), j.at("bytes").get<std::uint64_t>(),
                      j.at("winner").get<std::string>(), j.at("gain").get<double>(), j.at("default_us").get<double>(),
                      j.at("winner_us").get<double>(), j.at("confirmed").get<bool>(), j.at("reason").get<std::string>()};
}

RangeGain range_from_json(const json& j) {
  return RangeGain{parse_collective(j.at("collective").get<std::string>()), j.at("min_bytes").get<std::uint64_t>(),
                   j.at("max_bytes").get<std::uint64_t>(), j.at("min_gain").get<double>(), j.at("max_gain").get<double>(),
                   j.at("sizes").get<std::size_t>()};
}

JobChoice choice_from_json(const json& j) {
  JobChoice c{j.at("scope").get<std::string>(), j.at("setting").get<std::string>(), j.at("objective_gain").get<double>(),
              j.at("weight_won").get<double>(), {}, j.at("why").get<std::string>()};
  for (const auto& g : j.at("gains")) c.gains.push_back(range_from_json(g));
  return c;
}

void check_names(const Recommendation& rec, const std::string& origin) {
  for (const auto& s : rec.settings)
    for (const auto& [name, value] : s.knobs) {
      try {
        validate_knob(rec.backend, name, value);
      } catch (const InputError& e) {
        throw InputError(origin + ": setting '" + s.name + "': " + e.what());
      }
    }
  for (const auto& d : rec.sizes)
    if (!d.winner.empty() && !rec.find_setting(d.winner)) throw InputError(origin + ": unknown setting " + d.winner);
  for (const auto& c : rec.choices)
    if (!rec.find_setting(c.setting)) throw InputError(origin + ": unknown setting " + c.setting);
}

}  // namespace

json to_json(const Recommendation& rec) {
  json j{{"kind", "commtune-recommendation"}, {"version", kRecommendationVersion}, {"backend", rec.backend},
         {"nranks", rec.nranks}, {"nnodes", rec.nnodes}, {"min_margin", rec.min_margin}, {"objective", rec.objective},
         {"confirmed", rec.confirmed}, {"confirm_rounds", rec.confirm_rounds}, {"disqualified", rec.disqualified},
         {"notes", rec.notes}};
  if (!rec.labels.empty()) j["labels"] = rec.labels;
  j["settings"] = json::array();
  for (const auto& s : rec.settings) j["settings"].push_back(commtune::to_json(s));
  j["sizes"] = json::array();
  for (const auto& d : rec.sizes) j["sizes"].push_back(to_json(d));
  j["choices"] = json::array();
  for (const auto& c : rec.choices) j["choices"].push_back(to_json(c));
  j["defaults_best"] = rec.defaults_best();
  return j;
}

bool is_recommendation_json(const json& j) { return j.is_object() && j.value("kind", "") == "commtune-recommendation"; }

Recommendation recommendation_from_json(const json& j, const std::string& origin) {
  if (!is_recommendation_json(j) || j.value("version", 0) != kRecommendationVersion)
    throw InputError(origin + ": not a commtune recommendation (version " + std::to_string(kRecommendationVersion) + ")");
  Recommendation rec;
  try {
    rec.backend = j.at("backend").get<std::string>();
    rec.nranks = j.at("nranks").get<int>();
    rec.nnodes = j.at("nnodes").get<int>();
    rec.min_margin = j.at("min_margin").get<double>();
    rec.objective = j.at("objective").get<std::string>();
    rec.confirmed = j.at("confirmed").get<bool>();
    rec.confirm_rounds = j.at("confirm_rounds").get<std::size_t>();
    rec.disqualified = j.at("disqualified").get<std::map<std::string, std::string>>();
    rec.notes = j.at("notes").get<std::vector<std::string>>();
    rec.labels = j.value("labels", std::vector<std::string>{});
    for (const auto& s : j.at("settings")) rec.settings.push_back(setting_from_json(s, origin + ": settings"));
    for (const auto& d : j.at("sizes")) rec.sizes.push_back(size_from_json(d));
    for (const auto& c : j.at("choices")) rec.choices.push_back(choice_from_json(c));
  } catch (const json::exception& e) {
    throw InputError(origin + ": damaged recommendation: " + e.what());
  }
  check_names(rec, origin);
  return rec;
}

}  // namespace commtune
