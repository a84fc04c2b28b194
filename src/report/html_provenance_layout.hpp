#pragma once
// The rank layout of a run's provenance ("layout", docs/results-schema.md) as rows a person reads:
// how many ranks on how many nodes, a table of the hosts (CPU, memory, GPUs counted by model) and
// one of the ranks' places (host, node, local rank, process, CPU or GPU), long ones collapsed.
#include <string>

#include <nlohmann/json.hpp>

#include "report/html_provenance_values.hpp"

namespace commtune {

void add_layout(const std::string& label, const nlohmann::json& layout, ProvenanceFacts& rows);

}  // namespace commtune
