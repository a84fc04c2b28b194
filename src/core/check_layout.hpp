#pragma once
// What the data check writes into a rank's input and expects in its result, read from the
// collective's traits: stretches of a buffer, each holding one rank's input values or the
// reduction over all ranks, at known indices of the case's elements. Both backends fill and
// verify from these, so neither switches on the collective.
#include <cstddef>
#include <optional>
#include <vector>

#include "core/types.hpp"

namespace commtune {

inline constexpr int kReduced = -1;  // DataSpan::source_rank of a reduction over every rank

struct DataSpan {
  std::size_t offset = 0;  // first element, from the start of the input or result
  std::size_t elements = 0;
  std::size_t first_index = 0;  // index of that element in the case's elements
  int source_rank = kReduced;   // whose input values it holds
};

// The input a rank fills before the check: its own values over its whole input. None on the
// ranks of a rooted collective other than the root (they send nothing).
std::optional<DataSpan> input_span(Collective c, std::size_t count, int rank, int nranks, int root);

// What a correct call leaves in a rank's result, one span per share: the reduction, the root's
// input, or (gathers) each share's owner's input.
std::vector<DataSpan> result_spans(Collective c, std::size_t count, int rank, int nranks, int root);

}  // namespace commtune
