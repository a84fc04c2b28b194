#include "core/collective_traits.hpp"

#include <array>

namespace commtune {
namespace {

double all_reduce_factor(int n) { return n > 0 ? 2.0 * (n - 1) / n : 0.0; }
double gather_factor(int n) { return n > 0 ? static_cast<double>(n - 1) / n : 0.0; }
double unit_factor(int) { return 1.0; }

constexpr std::array<CollectiveTraits, 4> kTraits{{
    {Collective::AllReduce, true, false, false, &all_reduce_factor},
    {Collective::AllGather, false, false, true, &gather_factor},
    {Collective::Broadcast, false, true, false, &unit_factor},
    {Collective::ReduceScatter, true, false, true, &gather_factor},
}};

}  // namespace

const CollectiveTraits& traits_of(Collective c) {
  for (const auto& t : kTraits)
    if (t.collective == c) return t;
  return kTraits[0];
}

std::size_t size_granularity(Collective c, DataType t, int nranks) {
  const std::size_t elem = size_of(t);
  return traits_of(c).size_is_total ? elem * static_cast<std::size_t>(nranks) : elem;
}

BufferCounts buffer_counts(Collective c, std::size_t bytes, DataType t, int nranks) {
  const std::size_t total = bytes / size_of(t);
  if (!traits_of(c).size_is_total) return {total, total, total};
  const std::size_t share = total / static_cast<std::size_t>(nranks);
  const std::size_t whole = share * static_cast<std::size_t>(nranks);
  if (c == Collective::AllGather) return {share, whole, share};
  return {whole, share, share};  // reduce-scatter
}

std::size_t bytes_per_rank(Collective c, std::size_t bytes, DataType t, int nranks) {
  const BufferCounts counts = buffer_counts(c, bytes, t, nranks);
  return (counts.send_elements + counts.recv_elements) * size_of(t);
}

}  // namespace commtune
