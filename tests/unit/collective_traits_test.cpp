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

TEST(SizeAccounting, GranularityKeepsWholeElementsPerRank) {
  EXPECT_EQ(size_granularity(Collective::AllGather, DataType::Float32, 4), 16u);
  EXPECT_EQ(size_granularity(Collective::AllReduce, DataType::Float32, 4), 4u);
}

TEST(SizeAccounting, BytesPerRankCountsBothBuffers) {
  EXPECT_EQ(bytes_per_rank(Collective::AllReduce, 1024, DataType::Float32, 2), 2048u);
  EXPECT_EQ(bytes_per_rank(Collective::AllGather, 1024, DataType::Float32, 4), 256u + 1024u);
}

}  // namespace
}  // namespace commtune
