#pragma once
// The recommendation file (`commtune tune --out`, and RESULTS.tune.json after a sweep):
// {"kind": "commtune-recommendation", "version": 1, ...}. `export` reads it back; reading
// validates every field (types, ranges, a winner faster than the default, settings that exist, no
// size or scope twice) and every knob, so a damaged or hand-edited file is a clear InputError that
// names the JSON path: "rec.json: sizes[2].winner_us: ...". Unknown fields are left alone.
#include <string>

#include <nlohmann/json.hpp>

#include "tune/recommendation.hpp"

namespace commtune {

inline constexpr int kRecommendationVersion = 1;

nlohmann::json to_json(const Recommendation& rec);
Recommendation recommendation_from_json(const nlohmann::json& j, const std::string& origin);
bool is_recommendation_json(const nlohmann::json& j);

}  // namespace commtune
