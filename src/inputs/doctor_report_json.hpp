#pragma once
// Reading back the doctor's JSON (`commtune doctor --json`): its findings, whether the machine is
// healthy, the path's ceiling, the pairwise map and the maps of each node's GPUs, for `commtune report`.
// Validated like every input (InputError naming the file and the JSON path): "tool": "commtune doctor", known
// severities, a square map of non-negative numbers (null on the diagonal) with one name per
// member. Unknown fields are left alone.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ceiling/ceiling.hpp"
#include "doctor/finding.hpp"

namespace commtune {

inline constexpr std::size_t kMaxMapMembers = 4096;

struct PairMap {
  std::vector<std::string> members;
  std::string member_kind;  // "node" or "rank"
  std::uint64_t message_bytes = 0;
  std::vector<std::vector<std::optional<double>>> gbps, latency_us;  // [from][to]
};

// The map of the GPUs inside one node (NCCL doctor, multi-node jobs).
struct NodeGpuMap {
  std::string host;
  PairMap map;
};

struct DoctorDocument {
  bool healthy = true;
  std::vector<Finding> findings;
  std::optional<Ceiling> ceiling;
  std::optional<PairMap> pairwise;
  std::vector<NodeGpuMap> node_gpus;  // "node_gpus": {"maps": [{"host": H, "pairwise": MAP}, ...]}
};

bool is_doctor_json(const nlohmann::json& j);
DoctorDocument doctor_document_from_json(const nlohmann::json& j, const std::string& origin);

}  // namespace commtune
