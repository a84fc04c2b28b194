#include <gtest/gtest.h>

#include "core/check_layout.hpp"
#include "core/collective_traits.hpp"

namespace commtune {
namespace {

TEST(InputSpan, EveryRankFillsItsWholeInputWithItsOwnValues) {
  const auto reduce = input_span(Collective::AllReduce, 100, 2, 4, 0);
  ASSERT_TRUE(reduce.has_value());
  EXPECT_EQ(reduce->offset, 0u);
  EXPECT_EQ(reduce->elements, 100u);
  EXPECT_EQ(reduce->first_index, 0u);
  EXPECT_EQ(reduce->source_rank, 2);
  const auto scatter = input_span(Collective::ReduceScatter, 100, 2, 4, 0);
  ASSERT_TRUE(scatter.has_value());
  EXPECT_EQ(scatter->elements, 400u);  // every rank's share
  EXPECT_EQ(scatter->first_index, 0u);
  EXPECT_EQ(scatter->source_rank, 2);
}

TEST(InputSpan, AnAllGatherInputIsTheRanksShareOfTheElements) {
  const auto gather = input_span(Collective::AllGather, 100, 3, 4, 0);
  ASSERT_TRUE(gather.has_value());
  EXPECT_EQ(gather->offset, 0u);
  EXPECT_EQ(gather->elements, 100u);
  EXPECT_EQ(gather->first_index, 300u);
  EXPECT_EQ(gather->source_rank, 3);
}

TEST(InputSpan, OnlyTheBroadcastRootFills) {
  EXPECT_FALSE(input_span(Collective::Broadcast, 50, 0, 3, 1).has_value());
  EXPECT_FALSE(input_span(Collective::Broadcast, 50, 2, 3, 1).has_value());
  const auto root = input_span(Collective::Broadcast, 50, 1, 3, 1);
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->elements, 50u);
  EXPECT_EQ(root->first_index, 0u);
  EXPECT_EQ(root->source_rank, 1);
}

TEST(ResultSpans, AllReduceExpectsTheReductionEverywhere) {
  const auto spans = result_spans(Collective::AllReduce, 100, 1, 4, 0);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].offset, 0u);
  EXPECT_EQ(spans[0].elements, 100u);
  EXPECT_EQ(spans[0].first_index, 0u);
  EXPECT_EQ(spans[0].source_rank, kReduced);
}

TEST(ResultSpans, ReduceScatterExpectsTheReductionOfTheRanksShare) {
  const auto spans = result_spans(Collective::ReduceScatter, 100, 3, 4, 0);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].offset, 0u);
  EXPECT_EQ(spans[0].elements, 100u);
  EXPECT_EQ(spans[0].first_index, 300u);
  EXPECT_EQ(spans[0].source_rank, kReduced);
}

TEST(ResultSpans, AllGatherExpectsEachSharesOwnerInput) {
  const auto spans = result_spans(Collective::AllGather, 10, 1, 3, 0);
  ASSERT_EQ(spans.size(), 3u);
  for (std::size_t r = 0; r < spans.size(); ++r) {
    EXPECT_EQ(spans[r].offset, r * 10) << r;
    EXPECT_EQ(spans[r].elements, 10u) << r;
    EXPECT_EQ(spans[r].first_index, r * 10) << r;
    EXPECT_EQ(spans[r].source_rank, static_cast<int>(r)) << r;
  }
}

TEST(ResultSpans, BroadcastExpectsTheRootsInputOnEveryRank) {
  for (int rank : {0, 1, 2}) {
    const auto spans = result_spans(Collective::Broadcast, 50, rank, 3, 2);
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].elements, 50u);
    EXPECT_EQ(spans[0].first_index, 0u);
    EXPECT_EQ(spans[0].source_rank, 2);
  }
}

TEST(ResultSpans, CoverTheReceiveBufferExactlyAndInputFitsTheSendBuffer) {
  for (Collective c : all_collectives())
    for (int nranks : {1, 2, 5})
      for (int rank = 0; rank < nranks; ++rank) {
        const BufferCounts k = buffer_counts(c, 4 * 1000, DataType::Float32, nranks);
        std::size_t next = 0;
        for (const DataSpan& s : result_spans(c, k.count, rank, nranks, 0)) {
          EXPECT_EQ(s.offset, next) << name_of(c);
          next += s.elements;
        }
        EXPECT_EQ(next, k.recv_elements) << name_of(c) << " rank " << rank << "/" << nranks;
        if (const auto in = input_span(c, k.count, rank, nranks, 0)) {
          EXPECT_EQ(in->elements, k.send_elements) << name_of(c) << " rank " << rank << "/" << nranks;
        }
      }
}

}  // namespace
}  // namespace commtune
