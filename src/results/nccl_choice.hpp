#pragma once
// What NCCL chose by itself for a case of the default setting (NCCL backend): the algorithm and
// protocol its cost table picked, as commtune's tuner plugin recorded them in record mode
// (docs/nccl-backend.md, "What NCCL chose"), or why nothing was recorded. The names are the tuner
// rules file's tokens (ring, nvls_tree, ll128), printed in NCCL's log spelling (RING/LL128).
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace commtune {

inline constexpr int kMaxRecordedChannels = 1024;

struct NcclChoice {
  bool recorded = false;
  std::string algorithm;  // a tuner token: tree, ring, collnet_direct, collnet_chain, nvls, nvls_tree, pat
  std::string protocol;   // ll, ll128, simple
  int channels = -1;      // -1: not known (NCCL picks them after the tuner)
  std::string reason;     // why not recorded

  bool operator==(const NcclChoice&) const = default;
};

NcclChoice recorded_choice(std::string algorithm, std::string protocol, int channels = -1);
NcclChoice unrecorded_choice(std::string reason);

bool is_nccl_algorithm_token(std::string_view token);
bool is_nccl_protocol_token(std::string_view token);

// "RING/LL128" (channels added where known: "RING/LL128/16ch"), or "not recorded (REASON)".
std::string describe(const NcclChoice& choice);
// The short form of a table cell: "RING/LL128", or "--" when not recorded.
std::string short_form(const NcclChoice& choice);

// {"recorded": true, "algorithm": ..., "protocol": ...[, "channels": N]} or
// {"recorded": false, "reason": ...}.
nlohmann::json to_json(const NcclChoice& choice);
// Validates (InputError naming `where`): known tokens, channels 1..kMaxRecordedChannels, a reason
// when not recorded.
NcclChoice nccl_choice_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
