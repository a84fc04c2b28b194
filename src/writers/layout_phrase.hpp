#pragma once
// How the banner and the table name a run's layout: "8 ranks, 4 nodes, 2 ranks per node".
#include <string>

#include <nlohmann/json.hpp>

#include "core/backend_kind.hpp"

namespace commtune {

// From provenance.layout (nhosts, local_sizes); just "N ranks" where those are missing.
std::string layout_phrase(int nranks, const nlohmann::json& layout);

// The note a one-rank run carries (table, stderr): what it measured and what to type instead.
std::string one_rank_note(BackendKind backend);

}  // namespace commtune
