#pragma once
// The ceiling a run's provenance carries ("ceiling", docs/results-schema.md), for the writers'
// efficiency column and verdict; nothing when the run has none.
#include <optional>

#include <nlohmann/json.hpp>

#include "ceiling/ceiling.hpp"

namespace commtune {

std::optional<Ceiling> ceiling_of(const nlohmann::json& provenance);

}  // namespace commtune
