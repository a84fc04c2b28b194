#include "backend/nccl/algo_grammar.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/errors.hpp"

namespace commtune {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
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

const char* variable_of(SelectionKind kind) { return kind == SelectionKind::Algorithm ? "NCCL_ALGO" : "NCCL_PROTO"; }

// NCCL's function prefixes; SendRecv and AlltoAll take no NCCL_ALGO/PROTO.
const std::set<std::string>& known_functions() {
  static const std::set<std::string> functions{"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
  return functions;
}

std::string function_of(Collective c) {
  switch (c) {
    case Collective::AllReduce: return "allreduce";
    case Collective::AllGather: return "allgather";
    case Collective::Broadcast: return "broadcast";
    case Collective::ReduceScatter: return "reducescatter";
  }
  return "";
}

std::string canonical_token(SelectionKind kind, std::string_view token) {
  for (const auto& known : known_tokens(kind))
    if (lower(known) == lower(token)) return known;
  std::string names;
  for (const auto& known : known_tokens(kind)) names += (names.empty() ? "" : ", ") + known;
  throw InputError(std::string(variable_of(kind)) + ": unknown token '" + std::string(token) + "' (NCCL 2.28 knows " +
                   names + "; whitespace is not allowed)");
}

// One list `[^]a,b,c`: the enabled tokens it leaves.
std::set<std::string> parse_list(SelectionKind kind, std::string_view list) {
  const bool negate = !list.empty() && list.front() == '^';
  if (negate) list.remove_prefix(1);
  if (list.empty()) throw InputError(std::string(variable_of(kind)) + ": empty token list");
  std::set<std::string> listed;
  for (std::string_view token : split(list, ',')) listed.insert(canonical_token(kind, token));
  if (!negate) return listed;
  std::set<std::string> kept;
  for (const auto& known : known_tokens(kind))
    if (!listed.count(known)) kept.insert(known);
  return kept;
}

}  // namespace

const std::set<std::string>& known_tokens(SelectionKind kind) {
  static const std::set<std::string> algorithms{"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
  static const std::set<std::string> protocols{"LL", "LL128", "Simple"};
  return kind == SelectionKind::Algorithm ? algorithms : protocols;
}

TokenSelection::TokenSelection(SelectionKind kind, std::string_view value) : kind_(kind), everywhere_(known_tokens(kind)) {
  if (value.empty()) throw InputError(std::string(variable_of(kind)) + ": empty value");
  const std::vector<std::string_view> entries = split(value, ';');
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t colon = entries[i].find(':');
    if (colon == std::string_view::npos) {
      if (i != 0) throw InputError(std::string(variable_of(kind)) + ": only the first entry may omit 'function:' (" +
                                   std::string(entries[i]) + ")");
      everywhere_ = parse_list(kind, entries[i]);
      continue;
    }
    const std::string function = lower(entries[i].substr(0, colon));
    if (!known_functions().count(function))
      throw InputError(std::string(variable_of(kind)) + ": unknown function '" + std::string(entries[i].substr(0, colon)) +
                       "' (Broadcast, Reduce, AllGather, ReduceScatter, AllReduce)");
    functions_with_entries_.insert(function);
    for (const auto& token : parse_list(kind, entries[i].substr(colon + 1))) per_function_.insert({function, token});
  }
}

std::set<std::string> TokenSelection::enabled_for(Collective c) const {
  const std::string function = function_of(c);
  if (!functions_with_entries_.count(function)) return everywhere_;
  std::set<std::string> enabled;
  for (const auto& [f, token] : per_function_)
    if (f == function) enabled.insert(token);
  return enabled;
}

}  // namespace commtune
