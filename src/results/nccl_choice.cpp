#include "results/nccl_choice.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "core/json_fields.hpp"

namespace commtune {
namespace {

// The cost table's rows and columns in NCCL 2.28 order (the tuner plugin's tables hold the same).
constexpr std::array<std::string_view, 7> kAlgorithms{
    "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
constexpr std::array<std::string_view, 3> kProtocols{"ll", "ll128", "simple"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& table, std::string_view token) {
  return std::find(table.begin(), table.end(), token) != table.end();
}

template <std::size_t N>
std::string listing(const std::array<std::string_view, N>& table) {
  std::string out;
  for (std::string_view t : table) out += (out.empty() ? "" : "|") + std::string(t);
  return out;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string token_at(const nlohmann::json& j, const char* key, const std::string& where, bool algorithm) {
  const std::string token = field_as<std::string>(j, key, where);
  if (algorithm ? !is_nccl_algorithm_token(token) : !is_nccl_protocol_token(token))
    bad_value(member_path(where, key), algorithm ? listing(kAlgorithms) : listing(kProtocols), j.at(key));
  return token;
}

}  // namespace

NcclChoice recorded_choice(std::string algorithm, std::string protocol, int channels) {
  NcclChoice c;
  c.recorded = true;
  c.algorithm = std::move(algorithm);
  c.protocol = std::move(protocol);
  c.channels = channels;
  return c;
}

NcclChoice unrecorded_choice(std::string reason) {
  NcclChoice c;
  c.reason = std::move(reason);
  return c;
}

bool is_nccl_algorithm_token(std::string_view token) { return listed(kAlgorithms, token); }
bool is_nccl_protocol_token(std::string_view token) { return listed(kProtocols, token); }

std::string short_form(const NcclChoice& c) {
  if (!c.recorded) return "--";
  return upper(c.algorithm) + "/" + upper(c.protocol) +
         (c.channels > 0 ? "/" + std::to_string(c.channels) + "ch" : "");
}

std::string describe(const NcclChoice& c) {
  return c.recorded ? short_form(c) : "not recorded (" + c.reason + ")";
}

nlohmann::json to_json(const NcclChoice& c) {
  if (!c.recorded) return {{"recorded", false}, {"reason", c.reason}};
  nlohmann::json j{{"recorded", true}, {"algorithm", c.algorithm}, {"protocol", c.protocol}};
  if (c.channels > 0) j["channels"] = c.channels;
  return j;
}

NcclChoice nccl_choice_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object", j);
  if (!field_as<bool>(j, "recorded", where)) {
    NcclChoice c = unrecorded_choice(field_as<std::string>(j, "reason", where));
    if (c.reason.empty())
      throw InputError(member_path(where, "reason") + ": an unrecorded choice needs its reason");
    return c;
  }
  NcclChoice c =
      recorded_choice(token_at(j, "algorithm", where, true), token_at(j, "protocol", where, false));
  if (j.contains("channels"))
    c.channels = static_cast<int>(
        integer_in(j.at("channels"), member_path(where, "channels"), 1, kMaxRecordedChannels));
  return c;
}

}  // namespace commtune
