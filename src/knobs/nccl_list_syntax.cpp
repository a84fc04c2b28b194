#include "knobs/nccl_list_syntax.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/errors.hpp"
#include "knobs/nccl_functions.hpp"

namespace commtune {
namespace {

constexpr std::array<std::string_view, 7> kAlgorithms{
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
constexpr std::array<std::string_view, 3> kProtocols{"LL", "LL128", "Simple"};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return out;
}

const char* knob_name(NcclListKind kind) {
  return kind == NcclListKind::Algorithm ? "NCCL_ALGO" : "NCCL_PROTO";
}

std::string canonical_token(std::string_view token, NcclListKind kind) {
  const auto matches = [&](std::string_view known) { return lower(known) == lower(token); };
  if (kind == NcclListKind::Algorithm) {
    for (auto known : kAlgorithms)
      if (matches(known)) return std::string(known);
  } else {
    for (auto known : kProtocols)
      if (matches(known)) return std::string(known);
  }
  std::string names;
  for (const auto& known : nccl_tokens(kind)) names += (names.empty() ? "" : ", ") + known;
  throw InputError(std::string(knob_name(kind)) + ": unknown token '" + std::string(token) +
                   "' (NCCL 2.28 knows " + names + "; whitespace is not allowed)");
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == separator) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

std::string function_of(std::string_view prefix, NcclListKind kind) {
  const std::string name = lower(prefix);
  if (!is_nccl_function(name))
    throw InputError(std::string(knob_name(kind)) + ": unknown function '" + std::string(prefix) +
                     "' (broadcast, reduce, allgather, reducescatter, allreduce)");
  return name;
}

NcclListEntry parse_entry(std::string_view text, bool first, NcclListKind kind) {
  NcclListEntry entry;
  const auto colon = text.find(':');
  if (colon != std::string_view::npos) {
    entry.function = function_of(text.substr(0, colon), kind);
    text = text.substr(colon + 1);
  } else if (!first) {
    throw InputError(std::string(knob_name(kind)) + ": only the first entry may omit 'function:'");
  }
  if (!text.empty() && text.front() == '^') {
    entry.negated = true;
    text.remove_prefix(1);
  }
  for (std::string_view token : split(text, ',')) {
    if (token.empty()) throw InputError(std::string(knob_name(kind)) + ": empty token");
    entry.tokens.push_back(canonical_token(token, kind));
  }
  return entry;
}

}  // namespace

const std::vector<std::string>& nccl_tokens(NcclListKind kind) {
  static const std::vector<std::string> algorithms(kAlgorithms.begin(), kAlgorithms.end());
  static const std::vector<std::string> protocols(kProtocols.begin(), kProtocols.end());
  return kind == NcclListKind::Algorithm ? algorithms : protocols;
}

std::vector<NcclListEntry> parse_nccl_list(std::string_view value, NcclListKind kind) {
  if (value.empty()) throw InputError(std::string(knob_name(kind)) + ": empty value");
  std::vector<NcclListEntry> entries;
  for (std::string_view part : split(value, ';')) entries.push_back(parse_entry(part, entries.empty(), kind));
  return entries;
}

std::string nccl_function_name(Collective c) { return std::string(name_of(c)); }

std::optional<NcclListEntry> entry_for(const std::vector<NcclListEntry>& list, Collective c) {
  const std::string function = nccl_function_name(c);
  for (const auto& e : list)
    if (e.function == function) return e;
  for (const auto& e : list)
    if (e.function.empty()) return e;
  return std::nullopt;
}

std::string format_tokens(const NcclListEntry& entry) {
  std::string text = entry.negated ? "^" : "";
  for (std::size_t i = 0; i < entry.tokens.size(); ++i) text += (i ? "," : "") + entry.tokens[i];
  return text;
}

std::string format_nccl_list(const std::vector<NcclListEntry>& entries) {
  std::string text;
  for (const auto& e : entries) text += (text.empty() ? "" : ";") + e.function + ":" + format_tokens(e);
  return text;
}

std::optional<std::string> single_token_lowercase(const NcclListEntry& entry) {
  if (entry.negated || entry.tokens.size() != 1) return std::nullopt;
  std::string token = lower(entry.tokens.front());
  if (token == "collnetdirect") return "collnet_direct";
  if (token == "collnetchain") return "collnet_chain";
  if (token == "nvlstree") return "nvls_tree";
  return token;
}

std::set<std::string> known_tokens(SelectionKind kind) {
  const auto& tokens = nccl_tokens(kind);
  return {tokens.begin(), tokens.end()};
}

TokenSelection::TokenSelection(SelectionKind kind, std::string_view value)
    : kind_(kind), entries_(parse_nccl_list(value, kind)) {}

std::set<std::string> TokenSelection::enabled_for(Collective c) const {
  const std::optional<NcclListEntry> entry = entry_for(entries_, c);
  if (!entry) return known_tokens(kind_);
  const std::set<std::string> listed(entry->tokens.begin(), entry->tokens.end());
  if (!entry->negated) return listed;
  std::set<std::string> kept;
  for (const auto& token : known_tokens(kind_))
    if (!listed.count(token)) kept.insert(token);
  return kept;
}

}  // namespace commtune
