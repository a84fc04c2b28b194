#include "writers/layout_phrase.hpp"

#include <algorithm>
#include <vector>

namespace commtune {
namespace {

std::string counted(long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Ranks on each node, or empty when the layout does not say.
std::vector<long> ranks_on_each_node(const nlohmann::json& layout) {
  std::vector<long> counts;
  if (!layout.is_object()) return counts;
  const auto it = layout.find("local_sizes");
  if (it == layout.end() || !it->is_array()) return counts;
  for (const auto& n : *it) {
    if (!n.is_number_integer() || n.get<long>() < 1) return {};
    counts.push_back(n.get<long>());
  }
  return counts;
}

}  // namespace

std::string layout_phrase(int nranks, const nlohmann::json& layout) {
  std::string phrase = counted(nranks, "rank", "ranks");
  const std::vector<long> counts = ranks_on_each_node(layout);
  if (counts.empty()) return phrase;
  const auto [least, most] = std::minmax_element(counts.begin(), counts.end());
  phrase += ", " + counted(static_cast<long>(counts.size()), "node", "nodes") + ", ";
  if (*least == *most) return phrase + counted(*most, "rank per node", "ranks per node");
  return phrase + std::to_string(*least) + " to " + std::to_string(*most) + " ranks per node";
}

std::string one_rank_note(BackendKind backend) {
  return "one rank: nothing travels between ranks, so no bandwidth or efficiency is shown (times only); " +
         std::string(traits_of(backend).more_ranks);
}

}  // namespace commtune
