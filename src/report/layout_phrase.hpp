#pragma once
// How the banner and the table name a run's layout: "8 ranks, 4 nodes, 2 ranks per node".
#include <string>

#include <nlohmann/json.hpp>

namespace commtune {

// From provenance.layout (nhosts, local_sizes); just "N ranks" where those are missing.
std::string layout_phrase(int nranks, const nlohmann::json& layout);

}  // namespace commtune
