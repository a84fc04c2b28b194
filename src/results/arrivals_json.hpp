#pragma once
// The `arrivals` of a case in a results file (docs/results-schema.md): which rank arrived last at
// each iteration, tallied per rank. The reader checks it against the case it belongs to.
#include <string>

#include <nlohmann/json.hpp>

#include "measure/last_arrival.hpp"

namespace commtune {

nlohmann::json to_json(const ArrivalTally& tally);

// `nranks` and `samples`: the case's; throws InputError naming the field.
ArrivalTally arrivals_from_json(const nlohmann::json& j, const std::string& where, int nranks,
                                std::size_t samples);

}  // namespace commtune
