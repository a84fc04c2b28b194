#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "measure/data_pattern.hpp"

namespace commtune {
namespace {

// Simulates an all-reduce on the host: every rank's inputs reduced element-wise.
template <typename T>
std::vector<std::byte> simulated_allreduce(DataType t, ReduceOp op, int nranks, std::size_t n) {
  std::vector<T> acc(n);
  for (int r = 0; r < nranks; ++r) {
    std::vector<std::byte> in(n * sizeof(T));
    fill_inputs(in, t, op, r, nranks);
    for (std::size_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, in.data() + i * sizeof(T), sizeof(T));
      if (r == 0)
        acc[i] = v;
      else if (op == ReduceOp::Sum)
        acc[i] = static_cast<T>(acc[i] + v);
      else if (op == ReduceOp::Prod)
        acc[i] = static_cast<T>(acc[i] * v);
      else if (op == ReduceOp::Max)
        acc[i] = std::max(acc[i], v);
      else
        acc[i] = std::min(acc[i], v);
    }
  }
  std::vector<std::byte> out(n * sizeof(T));
  std::memcpy(out.data(), acc.data(), out.size());
  return out;
}

TEST(DataPattern, ACorrectAllReduceHasNoMismatches) {
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min})
    for (int n : {1, 2, 3, 8}) {
      const auto f = simulated_allreduce<float>(DataType::Float32, op, n, 1000);
      EXPECT_EQ(count_mismatches(f, DataType::Float32, 0, reduced_value, op, n), 0)
          << name_of(op) << " n=" << n;
      const auto i8 = simulated_allreduce<std::int8_t>(DataType::Int8, op, n, 1000);
      EXPECT_EQ(count_mismatches(i8, DataType::Int8, 0, reduced_value, op, n), 0)
          << name_of(op) << " n=" << n;
    }
}

TEST(DataPattern, CorruptedElementsAreCounted) {
  auto data = simulated_allreduce<double>(DataType::Float64, ReduceOp::Sum, 4, 100);
  double bad = -1;
  std::memcpy(data.data() + 7 * sizeof(double), &bad, sizeof bad);
  std::memcpy(data.data() + 42 * sizeof(double), &bad, sizeof bad);
  EXPECT_EQ(count_mismatches(data, DataType::Float64, 0, reduced_value, ReduceOp::Sum, 4), 2);
}

// The check works from one period of the pattern; it counts what the element-by-element
// definition counts, from any first index (a rank's share of a gather starts mid-period).
TEST(DataPattern, TheCheckFromOnePeriodCountsWhatTheDefinitionCounts) {
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min})
    for (int n : {1, 3, 8, 13})
      for (std::size_t first : {0, 5, 11}) {
        auto data = simulated_allreduce<std::int32_t>(DataType::Int32, op, n, 100);
        for (std::size_t i : {3, 17, 64}) data[i * sizeof(std::int32_t)] ^= std::byte{0x40};
        EXPECT_EQ(count_reduced_mismatches(data, DataType::Int32, first, op, n),
                  count_mismatches(data, DataType::Int32, first, reduced_value, op, n))
            << name_of(op) << " n=" << n << " first=" << first;
        std::vector<std::byte> in(37 * sizeof(double));
        fill_inputs(in, DataType::Float64, op, n - 1, n, first);
        for (std::size_t i = 0; i < 37; ++i) {
          double v = 0;
          std::memcpy(&v, in.data() + i * sizeof(double), sizeof v);
          ASSERT_EQ(v, input_value(op, n - 1, first + i, n)) << name_of(op) << " n=" << n << " i=" << i;
        }
        EXPECT_EQ(count_input_mismatches(in, DataType::Float64, op, n - 1, n, first), 0);
        if (op != ReduceOp::Prod) {  // one element off: every value differs from its neighbour's
          EXPECT_EQ(count_input_mismatches(in, DataType::Float64, op, n - 1, n, first + 1), 37);
        }
      }
}

TEST(DataPattern, RanksContributeDifferentValues) {
  EXPECT_NE(input_value(ReduceOp::Sum, 0, 0, 4), input_value(ReduceOp::Sum, 1, 0, 4));
  EXPECT_DOUBLE_EQ(reduced_value(ReduceOp::Prod, 5, 4, DataType::Float32), 2.0);  // exactly one rank gives 2
}

TEST(DataPattern, PoisonNeverLooksLikeAnInput) {
  std::vector<std::byte> buffer(64 * sizeof(std::int32_t));
  fill_poison(buffer, DataType::Int32, poison_value(DataType::Int32, ReduceOp::Sum, 4));
  EXPECT_EQ(count_input_mismatches(buffer, DataType::Int32, ReduceOp::Sum, 1, 4), 64);
}

// The old fixed poison (99) was the exact all-reduce sum of some elements at 29 ranks.
TEST(DataPattern, PoisonIsNeverACorrectResultAtAnyRankCount) {
  const std::vector<DataType> host_types{DataType::Int8,    DataType::Uint8,  DataType::Int32,
                                         DataType::Uint32,  DataType::Int64,  DataType::Uint64,
                                         DataType::Float32, DataType::Float64};
  for (DataType t : host_types)
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min})
      for (int nranks = 1; nranks <= 300; ++nranks) {
        std::vector<std::byte> poisoned(16 * size_of(t));
        fill_poison(poisoned, t, poison_value(t, op, nranks));
        ASSERT_EQ(count_mismatches(poisoned, t, 0, reduced_value, op, nranks), 16)
            << name_of(t) << " " << name_of(op) << " " << nranks;
        ASSERT_EQ(count_input_mismatches(poisoned, t, op, nranks - 1, nranks), 16)
            << name_of(t) << " " << nranks;
      }
  EXPECT_NE(poison_value(DataType::Float32, ReduceOp::Sum, 29), 99.0);
}

// Sums stay exact up to 256 in bfloat16, 2048 in half: the check says where it stops.
TEST(DataPattern, InexactSumsSwitchTheCheckOffWithTheLimit) {
  EXPECT_FALSE(inexact_check(DataType::BFloat16, ReduceOp::Sum, 8).has_value());
  EXPECT_FALSE(inexact_check(DataType::BFloat16, ReduceOp::Sum, 72).has_value());
  const auto bf16 = inexact_check(DataType::BFloat16, ReduceOp::Sum, 73);
  ASSERT_TRUE(bf16.has_value());
  EXPECT_NE(bf16->find("exact up to 72 ranks"), std::string::npos) << *bf16;
  EXPECT_FALSE(inexact_check(DataType::Float16, ReduceOp::Sum, 584).has_value());
  EXPECT_TRUE(inexact_check(DataType::Float16, ReduceOp::Sum, 585).has_value());
  EXPECT_FALSE(inexact_check(DataType::BFloat16, ReduceOp::Max, 4096).has_value());
  EXPECT_FALSE(inexact_check(DataType::Int8, ReduceOp::Sum, 4096).has_value());  // wraps exactly
  EXPECT_FALSE(inexact_check(DataType::Float32, ReduceOp::Sum, 100000).has_value());
}

TEST(DataPattern, OffsetsSelectTheRightElements) {
  std::vector<std::byte> chunk(10 * sizeof(float));
  fill_inputs(chunk, DataType::Float32, ReduceOp::Sum, 2, 4, 30);
  EXPECT_EQ(count_input_mismatches(chunk, DataType::Float32, ReduceOp::Sum, 2, 4, 30), 0);
  EXPECT_GT(count_input_mismatches(chunk, DataType::Float32, ReduceOp::Sum, 2, 4, 31), 0);
}

TEST(DataPattern, HalfTypesHaveNoHostRepresentation) {
  std::vector<std::byte> buffer(16);
  EXPECT_THROW(fill_inputs(buffer, DataType::Float16, ReduceOp::Sum, 0, 2), InputError);
}

}  // namespace
}  // namespace commtune
