#pragma once
// The figures of a replay's setting as its results file writes them (for a reader; the file's
// reader recomputes them from the steps, replay/replay_verdict).
#include <nlohmann/json.hpp>

#include "replay/replay_verdict.hpp"

namespace commtune {

nlohmann::json to_json(const SettingFigures& figures);

}  // namespace commtune
