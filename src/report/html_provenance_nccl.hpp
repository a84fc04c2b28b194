#pragma once
// The NCCL facts of a run's provenance (under the NCCL backend's name, docs/results-schema.md and
// docs/nccl-backend.md) as rows a person reads: the NCCL, CUDA and driver versions (once when every host
// agrees), what recorded NCCL's own choice, the run's options, a table of the GPUs (host, name, bus, memory,
// ranks), each host's GPU topology matrix folded away, its InfiniBand ports. Also the short form
// read from nccl-tests' JSON ({version, cuda_runtime, driver}).
#include <string>

#include <nlohmann/json.hpp>

#include "report/html_provenance_values.hpp"

namespace commtune {

void add_nccl(const std::string& label, const nlohmann::json& nccl, ProvenanceFacts& rows);

}  // namespace commtune
