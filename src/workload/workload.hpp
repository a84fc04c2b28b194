#pragma once
// A training job's step as commtune measures it (`commtune workload`, `sweep --workload`,
// `tune --workload`, `replay`; docs/workload.md): the collectives one step runs, in order, each on
// the communicator group it runs on, with how many times per step. One type, one JSON shape:
// written by `commtune workload`, read (and validated) by every command that takes a workload.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.hpp"
#include "plan/groups.hpp"

namespace commtune {

// One collective of the step. `bytes` is nccl-tests' size of the case (core/collective_traits:
// all-gather and reduce-scatter count every rank's share), so a workload entry is a sweep case.
struct WorkloadCollective {
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  DataType datatype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;  // reductions only (written only for them)
  GroupSpec group;              // its communicator, in --groups terms
  int group_ranks = 0;          // ranks of that communicator
  std::uint64_t count = 1;      // times per step
  std::string label;            // where it is in the step ("bucket 3", "layer 7 forward"); may be empty
  bool operator==(const WorkloadCollective&) const = default;
};

// Where the workload came from, as the reader found it.
struct WorkloadSource {
  std::string kind;                 // "nccl-log", "torch-trace" or "preset"
  std::vector<std::string> files;   // the inputs read (empty for a preset)
  nlohmann::json parameters;        // a preset's numbers (params, layers, hidden, ...), else null
  std::uint64_t skipped_lines = 0;  // input lines that did not parse (said in a warning too)
  std::vector<std::string>
      notes;  // what was inferred rather than read ("shape inferred from one rank's log")
  bool operator==(const WorkloadSource&) const = default;
};

struct Workload {
  int world_ranks = 0;                          // the job's ranks
  std::vector<WorkloadCollective> collectives;  // one step, in order
  WorkloadSource source;
  bool operator==(const Workload&) const = default;
};

// The file's identity, as commtune's other files carry theirs ("kind" and "version").
inline constexpr std::string_view kWorkloadKind = "commtune-workload";
inline constexpr int kWorkloadVersion = 1;

nlohmann::json to_json(const Workload& workload);
// Whether a parsed document says it is a workload ("kind": "commtune-workload").
bool is_workload_json(const nlohmann::json& j);
// Validates everything (names, sizes against the group, group ranks against world_ranks, counts);
// an InputError names `origin` and the field.
Workload workload_from_json(const nlohmann::json& j, const std::string& origin);
Workload read_workload_file(const std::string& path);

}  // namespace commtune
