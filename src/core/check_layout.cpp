#include "core/check_layout.hpp"

#include "core/collective_traits.hpp"

namespace commtune {
namespace {

// Shares a part holds: one (its own) or every rank's, where the case is split into shares.
std::size_t shares_in(Part part, Collective c, int nranks) {
  return part == Part::All && size_is_total(c) ? static_cast<std::size_t>(nranks) : 1;
}

// Whose values a share of the result holds: the reduction, the root's input, or its owner's input.
int source_of(const CollectiveTraits& t, std::size_t share, int root) {
  if (t.reduces) return kReduced;
  return t.rooted ? root : static_cast<int>(share);
}

}  // namespace

std::optional<DataSpan> input_span(Collective c, std::size_t count, int rank, int nranks, int root) {
  const CollectiveTraits& t = traits_of(c);
  if (t.rooted && rank != root) return std::nullopt;
  return DataSpan{.offset = 0,
                  .elements = count * shares_in(t.input, c, nranks),
                  .first_index = part_start(t.input, rank, count),
                  .source_rank = rank};
}

std::vector<DataSpan> result_spans(Collective c, std::size_t count, int rank, int nranks, int root) {
  const CollectiveTraits& t = traits_of(c);
  const std::size_t first_share = t.result == Part::OwnShare ? static_cast<std::size_t>(rank) : 0;
  std::vector<DataSpan> spans;
  for (std::size_t i = 0; i < shares_in(t.result, c, nranks); ++i) {
    const std::size_t share = first_share + i;
    spans.push_back({i * count, count, share * count, source_of(t, share, root)});
  }
  return spans;
}

}  // namespace commtune
