#include "core/collective_traits.hpp"

#include <algorithm>
#include <array>

#include "core/collective_table.hpp"

namespace commtune {
namespace {

double all_reduce_factor(int n) { return n > 0 ? 2.0 * (n - 1) / n : 0.0; }
double gather_factor(int n) { return n > 0 ? static_cast<double>(n - 1) / n : 0.0; }
double unit_factor(int) { return 1.0; }

// One row a collective, in columns.
// clang-format off
constexpr std::array<CollectiveTraits, kCollectiveCount> kTraits{{
    // collective               reduces rooted input           result           bus factor
    {Collective::AllReduce,     true,   false, Part::All,      Part::All,      &all_reduce_factor},
    {Collective::AllGather,     false,  false, Part::OwnShare, Part::All,      &gather_factor},
    {Collective::Broadcast,     false,  true,  Part::All,      Part::All,      &unit_factor},
    {Collective::ReduceScatter, true,   false, Part::All,      Part::OwnShare, &gather_factor},
}};
// clang-format on
static_assert(covers_every_collective(kTraits), "one traits row per collective, in enum order");

}  // namespace

const CollectiveTraits& traits_of(Collective c) { return row_of(kTraits, c); }

bool size_is_total(Collective c) {
  const CollectiveTraits& t = traits_of(c);
  return t.input == Part::OwnShare || t.result == Part::OwnShare;
}

std::size_t part_start(Part part, int rank, std::size_t count) {
  return part == Part::OwnShare ? static_cast<std::size_t>(rank) * count : 0;
}

// nccl-tests' per-rank share of all-gather and reduce-scatter: whole 16-byte units
// ((count / nranks) & ~(16 / eltSize - 1) in its all_gather.cu / reduce_scatter.cu).
constexpr std::size_t kShareAlignment = 16;

std::size_t share_elements(std::size_t elem) { return std::max<std::size_t>(1, kShareAlignment / elem); }

std::size_t size_granularity(Collective c, DataType t, int nranks) {
  const std::size_t elem = size_of(t);
  return size_is_total(c) ? elem * share_elements(elem) * static_cast<std::size_t>(nranks) : elem;
}

BufferCounts buffer_counts(Collective c, std::size_t bytes, DataType t, int nranks) {
  const std::size_t shares = size_is_total(c) ? static_cast<std::size_t>(nranks) : 1;
  const std::size_t unit = size_is_total(c) ? share_elements(size_of(t)) : 1;
  const std::size_t count = bytes / size_of(t) / shares / unit * unit;
  const auto elements = [&](Part part) { return part == Part::OwnShare ? count : count * shares; };
  return {elements(traits_of(c).input), elements(traits_of(c).result), count};
}

std::size_t bytes_per_rank(Collective c, std::size_t bytes, DataType t, int nranks) {
  const BufferCounts counts = buffer_counts(c, bytes, t, nranks);
  return (counts.send_elements + counts.recv_elements) * size_of(t);
}

std::size_t send_buffer_elements(const BufferCounts& counts, Placement p) {
  return p == Placement::InPlace ? 0 : counts.send_elements;
}

std::size_t recv_buffer_elements(const BufferCounts& counts, Placement p) {
  return p == Placement::InPlace ? std::max(counts.send_elements, counts.recv_elements)
                                 : counts.recv_elements;
}

InPlaceOffsets nccl_in_place_offsets(Collective c, int rank, std::size_t count) {
  return {part_start(traits_of(c).input, rank, count), part_start(traits_of(c).result, rank, count)};
}

InPlaceOffsets mpi_in_place_offsets(Collective c, int rank, std::size_t count) {
  return {part_start(traits_of(c).input, rank, count), 0};
}

}  // namespace commtune
