#pragma once
// What differs between two runs' provenance that could explain a performance change: versions
// (driver, CUDA, NCCL, MPI), hosts, GPU models, topology, rank count, relevant environment.
// Fields that always differ (argv, start time, process ids) are left out. Most telling first.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace commtune {

struct ProvenanceDifference {
  std::string field;              // JSON pointer-like path, e.g. nccl/version
  std::string baseline, current;  // "(absent)" when missing on one side
};

std::vector<ProvenanceDifference> provenance_differences(const nlohmann::json& baseline,
                                                         const nlohmann::json& current);

}  // namespace commtune
