#pragma once
// NCCL_ALGO / NCCL_PROTO values, parsed with NCCL 2.28's grammar `[^]e1,e2[;func:[^]e1,...]*`
// (reference section 3) so a bad value is refused before any worker starts: NCCL itself would
// only fail communicator init, one worker at a time.
#include <set>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace commtune {

enum class SelectionKind { Algorithm, Protocol };

// Canonical token spellings NCCL accepts (Tree, Ring, ... / LL, LL128, Simple).
const std::set<std::string>& known_tokens(SelectionKind kind);

// Which tokens stay enabled for each function after applying the value.
class TokenSelection {
 public:
  // Throws InputError naming the offending part of `value`.
  TokenSelection(SelectionKind kind, std::string_view value);
  std::set<std::string> enabled_for(Collective c) const;

 private:
  SelectionKind kind_;
  std::set<std::string> everywhere_;                       // the entry without a function prefix
  std::set<std::pair<std::string, std::string>> per_function_;  // (function, token)
  std::set<std::string> functions_with_entries_;
};

}  // namespace commtune
