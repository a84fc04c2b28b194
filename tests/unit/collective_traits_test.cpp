#include <gtest/gtest.h>

#include "core/collective_traits.hpp"
#include "measure/bandwidth.hpp"

namespace commtune {
namespace {

TEST(BusBandwidth, FactorsFollowNcclTests) {
  EXPECT_DOUBLE_EQ(traits_of(Collective::AllReduce).bus_factor(4), 1.5);   // 2(n-1)/n
  EXPECT_DOUBLE_EQ(traits_of(Collective::AllGather).bus_factor(4), 0.75);  // (n-1)/n
  EXPECT_DOUBLE_EQ(traits_of(Collective::ReduceScatter).bus_factor(8), 0.875);
  EXPECT_DOUBLE_EQ(traits_of(Collective::Broadcast).bus_factor(16), 1.0);
  EXPECT_DOUBLE_EQ(traits_of(Collective::AllReduce).bus_factor(1), 0.0);
}

TEST(BusBandwidth, AlgbwIsBytesOverTimeInDecimalGigabytes) {
  EXPECT_DOUBLE_EQ(algorithm_bandwidth_gbps(1'000'000'000, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(algorithm_bandwidth_gbps(1 << 20, 1e-3), 1.048576);
  EXPECT_DOUBLE_EQ(algorithm_bandwidth_gbps(8, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(Collective::AllReduce, 1'000'000'000, 1.0, 8), 1.75);
}

TEST(SizeAccounting, AllGatherSizeIsTheWholeBuffer) {
  // 4 ranks, float, 1 MiB total: each rank sends 64 Ki elements and receives 256 Ki.
  const BufferCounts c = buffer_counts(Collective::AllGather, 1 << 20, DataType::Float32, 4);
  EXPECT_EQ(c.send_elements, 65536u);
  EXPECT_EQ(c.recv_elements, 262144u);
  EXPECT_EQ(c.count, 65536u);  // the printed count is per rank
}

TEST(SizeAccounting, ReduceScatterMirrorsAllGather) {
  const BufferCounts c = buffer_counts(Collective::ReduceScatter, 1 << 20, DataType::Float32, 4);
  EXPECT_EQ(c.send_elements, 262144u);
  EXPECT_EQ(c.recv_elements, 65536u);
  EXPECT_EQ(c.count, 65536u);
}

TEST(SizeAccounting, AllReduceAndBroadcastUseTheSizeAsIs) {
  EXPECT_EQ(buffer_counts(Collective::AllReduce, 4096, DataType::Float64, 3).count, 512u);
  EXPECT_EQ(buffer_counts(Collective::Broadcast, 4096, DataType::Int8, 3).recv_elements, 4096u);
}

TEST(SizeAccounting, GranularityKeepsWhole16ByteSharesPerRank) {
  EXPECT_EQ(size_granularity(Collective::AllGather, DataType::Float32, 4), 64u);  // 4 ranks x 16 B
  EXPECT_EQ(size_granularity(Collective::ReduceScatter, DataType::Int8, 3), 48u);
  EXPECT_EQ(size_granularity(Collective::AllGather, DataType::Float64, 2), 32u);
  EXPECT_EQ(size_granularity(Collective::AllReduce, DataType::Float32, 4), 4u);
}

// nccl-tests: the per-rank count of all-gather / reduce-scatter is (count / nranks) rounded down
// to whole 16-byte units, (count/nranks) & ~(16/eltSize - 1).
TEST(SizeAccounting, SharesRoundDownTo16BytesAsNcclTestsDoes) {
  EXPECT_EQ(buffer_counts(Collective::AllGather, 1000, DataType::Int8, 3).count, 320u);         // 333 -> 320
  EXPECT_EQ(buffer_counts(Collective::ReduceScatter, 1000, DataType::Float16, 3).count, 160u);  // 166 -> 160
  EXPECT_EQ(buffer_counts(Collective::AllGather, 100, DataType::Float64, 3).count, 4u);  // 4 (already even)
  EXPECT_EQ(buffer_counts(Collective::AllGather, 16, DataType::Float32, 4).count,
            0u);  // below one unit a rank
  EXPECT_EQ(buffer_counts(Collective::AllReduce, 1000, DataType::Int8, 3).count, 1000u);  // not a share
}

TEST(SizeAccounting, BytesPerRankCountsBothBuffers) {
  EXPECT_EQ(bytes_per_rank(Collective::AllReduce, 1024, DataType::Float32, 2), 2048u);
  EXPECT_EQ(bytes_per_rank(Collective::AllGather, 1024, DataType::Float32, 4), 256u + 1024u);
}

TEST(CollectiveRows, SharesFollowWhatEachRankSendsAndReceives) {
  EXPECT_EQ(traits_of(Collective::AllGather).input, Part::OwnShare);
  EXPECT_EQ(traits_of(Collective::AllGather).result, Part::All);
  EXPECT_EQ(traits_of(Collective::ReduceScatter).input, Part::All);
  EXPECT_EQ(traits_of(Collective::ReduceScatter).result, Part::OwnShare);
  for (Collective c : {Collective::AllReduce, Collective::Broadcast}) {
    EXPECT_EQ(traits_of(c).input, Part::All) << name_of(c);
    EXPECT_EQ(traits_of(c).result, Part::All) << name_of(c);
  }
}

TEST(CollectiveRows, OnlyShardedCollectivesCountEveryRanksShareInTheSize) {
  EXPECT_TRUE(size_is_total(Collective::AllGather));
  EXPECT_TRUE(size_is_total(Collective::ReduceScatter));
  EXPECT_FALSE(size_is_total(Collective::AllReduce));
  EXPECT_FALSE(size_is_total(Collective::Broadcast));
}

TEST(CollectiveRows, EveryCollectiveHasItsOwnRow) {
  for (Collective c : all_collectives()) EXPECT_EQ(traits_of(c).collective, c) << name_of(c);
}

TEST(SizeAccounting, ASizeThatDoesNotSplitEvenlyDropsTheRemainder) {
  // 1000 B of float = 250 elements; over 4 ranks 62 each, rounded down to whole 16-byte units
  // (4 floats): 60 each, 240 in the whole buffer.
  const BufferCounts gather = buffer_counts(Collective::AllGather, 1000, DataType::Float32, 4);
  EXPECT_EQ(gather.count, 60u);
  EXPECT_EQ(gather.send_elements, 60u);
  EXPECT_EQ(gather.recv_elements, 240u);
  const BufferCounts scatter = buffer_counts(Collective::ReduceScatter, 1000, DataType::Float32, 4);
  EXPECT_EQ(scatter.send_elements, 240u);
  EXPECT_EQ(scatter.recv_elements, 60u);
  EXPECT_EQ(buffer_counts(Collective::AllReduce, 1000, DataType::Float64, 4).count,
            125u);  // whole elements only
}

TEST(PartStart, AShareStartsAtRankTimesCount) {
  EXPECT_EQ(part_start(Part::OwnShare, 3, 100), 300u);
  EXPECT_EQ(part_start(Part::OwnShare, 0, 100), 0u);
  EXPECT_EQ(part_start(Part::All, 3, 100), 0u);
}

TEST(BufferSizes, OutOfPlaceAllocatesBothBuffersAsCounted) {
  for (Collective c : all_collectives()) {
    const BufferCounts k = buffer_counts(c, 4096, DataType::Float32, 4);
    EXPECT_EQ(send_buffer_elements(k, Placement::OutOfPlace), k.send_elements) << name_of(c);
    EXPECT_EQ(recv_buffer_elements(k, Placement::OutOfPlace), k.recv_elements) << name_of(c);
  }
}

TEST(BufferSizes, InPlaceAllocatesOneBufferAsLargeAsTheLargerOfTheTwo) {
  const BufferCounts scatter = buffer_counts(Collective::ReduceScatter, 4096, DataType::Float32, 4);
  EXPECT_EQ(send_buffer_elements(scatter, Placement::InPlace), 0u);
  EXPECT_EQ(recv_buffer_elements(scatter, Placement::InPlace), 1024u);  // the whole input
  const BufferCounts gather = buffer_counts(Collective::AllGather, 4096, DataType::Float32, 4);
  EXPECT_EQ(send_buffer_elements(gather, Placement::InPlace), 0u);
  EXPECT_EQ(recv_buffer_elements(gather, Placement::InPlace), 1024u);  // the whole result
  const BufferCounts reduce = buffer_counts(Collective::AllReduce, 4096, DataType::Float32, 4);
  EXPECT_EQ(recv_buffer_elements(reduce, Placement::InPlace), 1024u);
}

TEST(InPlaceOffsets, NcclAllGatherInputIsTheRanksShareOfTheReceiveBuffer) {
  for (int rank : {0, 1, 3}) {
    const InPlaceOffsets o = nccl_in_place_offsets(Collective::AllGather, rank, 100);
    EXPECT_EQ(o.input, static_cast<std::size_t>(rank) * 100) << rank;
    EXPECT_EQ(o.result, 0u) << rank;
  }
}

TEST(InPlaceOffsets, NcclReduceScatterResultIsTheRanksShareOfTheSendBuffer) {
  for (int rank : {0, 2, 7}) {
    const InPlaceOffsets o = nccl_in_place_offsets(Collective::ReduceScatter, rank, 64);
    EXPECT_EQ(o.input, 0u) << rank;
    EXPECT_EQ(o.result, static_cast<std::size_t>(rank) * 64) << rank;
  }
}

TEST(InPlaceOffsets, AllReduceAndBroadcastUseTheSameBufferForBoth) {
  for (Collective c : {Collective::AllReduce, Collective::Broadcast})
    for (int rank : {0, 5}) {
      for (const InPlaceOffsets o : {nccl_in_place_offsets(c, rank, 32), mpi_in_place_offsets(c, rank, 32)}) {
        EXPECT_EQ(o.input, 0u) << name_of(c) << " rank " << rank;
        EXPECT_EQ(o.result, 0u) << name_of(c) << " rank " << rank;
      }
    }
}

TEST(InPlaceOffsets, MpiResultsLandAtTheStartOfTheBuffer) {
  const InPlaceOffsets scatter = mpi_in_place_offsets(Collective::ReduceScatter, 3, 10);
  EXPECT_EQ(scatter.input, 0u);
  EXPECT_EQ(scatter.result, 0u);  // MPI_Reduce_scatter_block with MPI_IN_PLACE: the start of recvbuf
  const InPlaceOffsets gather = mpi_in_place_offsets(Collective::AllGather, 3, 10);
  EXPECT_EQ(gather.input, 30u);  // MPI_Allgather with MPI_IN_PLACE: the rank's block of recvbuf
  EXPECT_EQ(gather.result, 0u);
}

TEST(InPlaceOffsets, InputAndResultFitInTheOneBuffer) {
  for (Collective c : all_collectives())
    for (int nranks : {1, 2, 3, 8})
      for (int rank = 0; rank < nranks; ++rank) {
        const BufferCounts k = buffer_counts(c, 3 * 8 * 1024, DataType::Float64, nranks);
        const std::size_t size = recv_buffer_elements(k, Placement::InPlace);
        for (const InPlaceOffsets o :
             {nccl_in_place_offsets(c, rank, k.count), mpi_in_place_offsets(c, rank, k.count)}) {
          EXPECT_LE(o.input + k.send_elements, size) << name_of(c) << " rank " << rank << "/" << nranks;
          EXPECT_LE(o.result + k.recv_elements, size) << name_of(c) << " rank " << rank << "/" << nranks;
        }
      }
}

}  // namespace
}  // namespace commtune
