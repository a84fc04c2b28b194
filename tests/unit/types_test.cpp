#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/types.hpp"

namespace commtune {
namespace {

TEST(Types, NamesRoundTrip) {
  for (Collective c : all_collectives()) EXPECT_EQ(parse_collective(name_of(c)), c);
  for (auto t :
       {DataType::Int8, DataType::Uint8, DataType::Int32, DataType::Uint32, DataType::Int64, DataType::Uint64,
        DataType::Float16, DataType::BFloat16, DataType::Float32, DataType::Float64})
    EXPECT_EQ(parse_data_type(name_of(t)), t);
  for (auto op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min})
    EXPECT_EQ(parse_reduce_op(name_of(op)), op);
}

TEST(Types, AcceptsCommonAliasesCaseInsensitively) {
  EXPECT_EQ(parse_collective("AllReduce"), Collective::AllReduce);
  EXPECT_EQ(parse_collective("bcast"), Collective::Broadcast);
  EXPECT_EQ(parse_data_type("bf16"), DataType::BFloat16);
  EXPECT_EQ(parse_data_type("FLOAT"), DataType::Float32);
}

TEST(Types, UnknownNamesListTheKnownOnes) {
  try {
    parse_collective("alltoall");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("allreduce"), std::string::npos);
  }
  EXPECT_THROW(parse_reduce_op("avg"), InputError);
}

TEST(Types, ElementSizes) {
  EXPECT_EQ(size_of(DataType::BFloat16), 2u);
  EXPECT_EQ(size_of(DataType::Float64), 8u);
  EXPECT_TRUE(is_floating(DataType::Float16));
  EXPECT_FALSE(is_floating(DataType::Uint64));
}

}  // namespace
}  // namespace commtune
