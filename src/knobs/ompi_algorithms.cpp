#include "knobs/ompi_algorithms.hpp"

#include <array>
#include <charconv>
#include <vector>

#include "core/collective_table.hpp"

namespace commtune {
namespace {

struct CollectiveFacts {
  Collective collective;
  std::string_view key;
  int id;
  std::array<std::string_view, 10> algorithms;  // index = number; empty: none
};

constexpr std::array<CollectiveFacts, kCollectiveCount> kFacts{{
    {Collective::AllReduce,
     "allreduce",
     2,
     {"ignore", "basic_linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring",
      "rabenseifner"}},
    {Collective::AllGather,
     "allgather",
     0,
     {"ignore", "linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc"}},
    {Collective::Broadcast,
     "bcast",
     7,
     {"ignore", "basic_linear", "chain", "pipeline", "split_binary_tree", "binary_tree", "binomial",
      "knomial", "scatter_allgather", "scatter_allgather_ring"}},
    {Collective::ReduceScatter,
     "reduce_scatter_block",
     13,
     {"ignore", "basic_linear", "recursive_doubling", "recursive_halving", "butterfly"}},
}};
static_assert(covers_every_collective(kFacts), "one Open MPI row per collective, in enum order");

const CollectiveFacts& facts_of(Collective c) { return row_of(kFacts, c); }

constexpr std::string_view kPrefix = "coll_tuned_";

}  // namespace

std::string ompi_collective_key(Collective c) { return std::string(facts_of(c).key); }
int ompi_collective_id(Collective c) { return facts_of(c).id; }

std::optional<Collective> ompi_knob_collective(std::string_view knob) {
  if (!knob.starts_with(kPrefix)) return std::nullopt;
  const std::string_view rest = knob.substr(kPrefix.size());
  for (const auto& f : kFacts) {
    const std::string stem = std::string(f.key) + "_algorithm";
    if (rest == stem || (rest.starts_with(stem) && rest[stem.size()] == '_')) return f.collective;
  }
  return std::nullopt;
}

bool is_ompi_algorithm_knob(std::string_view knob) {
  const auto c = ompi_knob_collective(knob);
  return c && knob == std::string(kPrefix) + ompi_collective_key(*c) + "_algorithm";
}

std::optional<int> ompi_algorithm_number(Collective c, std::string_view value) {
  const auto& names = facts_of(c).algorithms;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!names[i].empty() && names[i] == value) return static_cast<int>(i);
  int number = -1;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) return std::nullopt;
  if (number < 0 || number >= static_cast<int>(names.size()) ||
      names[static_cast<std::size_t>(number)].empty())
    return std::nullopt;
  return number;
}

}  // namespace commtune
