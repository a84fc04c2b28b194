#pragma once
// One communication event of a PyTorch profiler trace, its args read and checked (torch_trace).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/call_sequence.hpp"

namespace commtune {

struct TorchCommEvent {
  double ts = 0;
  std::string name;                       // "Collective name" as written
  std::optional<CallKey> call;            // empty: a call commtune does not measure (send, barrier, ...)
  int group_size = 0;                     // "Group size"
  std::string group;                      // the process group: its name, else its ranks, else its size
  std::optional<std::vector<int>> ranks;  // "Process Group Ranks" when whole (not cut with "...")
};

// Throws InputError naming `where` (the event's JSON path) for a missing or bad arg.
TorchCommEvent read_comm_event(const nlohmann::json& event, const std::string& where);

// "[0, 1, 2]" (as the profiler writes the list, in a string) or a JSON list; empty when cut short.
std::optional<std::vector<int>> parse_rank_list(const nlohmann::json& value, const std::string& where);

}  // namespace commtune
