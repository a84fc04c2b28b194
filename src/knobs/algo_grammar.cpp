#include "knobs/algo_grammar.hpp"

namespace commtune {

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
