#pragma once
// NCCL_ALGO / NCCL_PROTO values, in NCCL 2.28's grammar: `[^]e1,e2[;func:[^]e1,...]*`.
// Only the first entry may omit `func:`; function prefixes and tokens are case-insensitive; no
// whitespace. Parsing validates every token, so a value that parses is one NCCL accepts. And
// which tokens a value leaves enabled for each collective (TokenSelection), so that a setting
// NCCL could not run is refused before any worker starts (NCCL itself would only fail
// communicator init, one worker at a time).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace commtune {

enum class NcclListKind { Algorithm, Protocol };

struct NcclListEntry {
  std::string function;             // lowercase NCCL function name; empty: every function
  bool negated = false;             // `^`: every token except these
  std::vector<std::string> tokens;  // canonical spellings (Ring, LL128, ...)
};

// Canonical token spellings NCCL 2.28 accepts: Tree, Ring, ... / LL, LL128, Simple.
const std::vector<std::string>& nccl_tokens(NcclListKind kind);

// Throws InputError naming the knob and the offending part.
std::vector<NcclListEntry> parse_nccl_list(std::string_view value, NcclListKind kind);

// The entry that governs collective c (its own `func:` entry, else the unprefixed one).
std::optional<NcclListEntry> entry_for(const std::vector<NcclListEntry>& list, Collective c);

// NCCL's function name for a collective: allreduce, allgather, broadcast, reducescatter.
std::string nccl_function_name(Collective c);

// `[^]tokens` of one entry, without its function prefix.
std::string format_tokens(const NcclListEntry& entry);

// `func:[^]tokens;func:...` with an explicit prefix on every entry (valid NCCL syntax).
std::string format_nccl_list(const std::vector<NcclListEntry>& entries);

// The single token of a one-token, non-negated entry, lowercase (tuner CSV spelling).
std::optional<std::string> single_token_lowercase(const NcclListEntry& entry);

using SelectionKind = NcclListKind;

// Canonical token spellings NCCL accepts (Tree, Ring, ... / LL, LL128, Simple), as a set.
std::set<std::string> known_tokens(SelectionKind kind);

class TokenSelection {
 public:
  // Throws InputError naming the offending part of `value`.
  TokenSelection(SelectionKind kind, std::string_view value);
  std::set<std::string> enabled_for(Collective c) const;

 private:
  SelectionKind kind_;
  std::vector<NcclListEntry> entries_;
};

}  // namespace commtune
