#pragma once
// Which NCCL_ALGO / NCCL_PROTO tokens a value leaves enabled for each collective, so that a
// setting NCCL could not run is refused before any worker starts (NCCL itself would only fail
// communicator init, one worker at a time). Parsing is knobs/nccl_list_syntax's, the one grammar.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "knobs/nccl_list_syntax.hpp"

namespace commtune {

using SelectionKind = NcclListKind;

// Canonical token spellings NCCL accepts (Tree, Ring, ... / LL, LL128, Simple).
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
