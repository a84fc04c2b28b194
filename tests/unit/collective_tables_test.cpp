// Every collective through every table keyed by Collective. Each table's own static_assert makes a
// missing row a build error; this walks the enum from 0 to kCollectiveCount and checks that what
// each row says is that collective's and no other's (names round-trip, keys and ids distinct).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/backend_kind.hpp"
#include "core/collective_table.hpp"
#include "core/errors.hpp"
#include "core/collective_traits.hpp"
#include "knobs/nccl_functions.hpp"
#include "knobs/ompi_algorithms.hpp"
#include "results/nccl_tests_json.hpp"

namespace commtune {
namespace {

std::vector<Collective> every_enum_value() {
  std::vector<Collective> out;
  for (std::size_t i = 0; i < kCollectiveCount; ++i) out.push_back(static_cast<Collective>(i));
  return out;
}

TEST(CollectiveTables, AllCollectivesIsEveryEnumValueInOrder) {
  EXPECT_EQ(all_collectives(), every_enum_value());
}

TEST(CollectiveTables, EveryCollectiveHasItsOwnRowInEveryTable) {
  std::set<std::string> names, ompi_keys, programs;
  std::set<int> ompi_ids, nccl_functions;
  for (const Collective c : every_enum_value()) {
    SCOPED_TRACE(static_cast<int>(c));
    EXPECT_EQ(parse_collective(name_of(c)), c);
    EXPECT_EQ(traits_of(c).collective, c);
    EXPECT_GT(traits_of(c).bus_factor(8), 0.0);
    names.insert(std::string(name_of(c)));
    ompi_keys.insert(ompi_collective_key(c));
    ompi_ids.insert(ompi_collective_id(c));
    programs.insert(std::string(nccl_tests_program(c)));
    const int function = nccl_function_of(c);
    ASSERT_GE(function, 0);
    ASSERT_LT(static_cast<std::size_t>(function), kNcclFunctions.size());
    nccl_functions.insert(function);
  }
  EXPECT_EQ(names.size(), kCollectiveCount);
  EXPECT_EQ(ompi_keys.size(), kCollectiveCount);
  EXPECT_EQ(ompi_ids.size(), kCollectiveCount);
  EXPECT_EQ(programs.size(), kCollectiveCount);
  EXPECT_EQ(nccl_functions.size(), kCollectiveCount);
}

TEST(CollectiveTables, NamesMatchTheirNcclFunctionAndProgram) {
  for (const Collective c : every_enum_value()) {
    SCOPED_TRACE(std::string(name_of(c)));
    EXPECT_EQ(kNcclFunctions[static_cast<std::size_t>(nccl_function_of(c))], name_of(c));
    std::string program(nccl_tests_program(c));
    std::erase(program, '_');
    EXPECT_EQ(program, std::string(name_of(c)) + "perf");
  }
}

struct Row {
  Collective collective;
};

TEST(CollectiveTables, ACoverageCheckRefusesAMissingOrMisplacedRow) {
  constexpr std::array<Row, kCollectiveCount> complete{{{Collective::AllReduce},
                                                        {Collective::AllGather},
                                                        {Collective::Broadcast},
                                                        {Collective::ReduceScatter}}};
  constexpr std::array<Row, kCollectiveCount - 1> missing{
      {{Collective::AllReduce}, {Collective::AllGather}, {Collective::Broadcast}}};
  constexpr std::array<Row, kCollectiveCount> swapped{{{Collective::AllGather},
                                                       {Collective::AllReduce},
                                                       {Collective::Broadcast},
                                                       {Collective::ReduceScatter}}};
  static_assert(covers_every_collective(complete));
  static_assert(!covers_every_collective(missing));
  static_assert(!covers_every_collective(swapped));
  EXPECT_EQ(row_of(complete, Collective::Broadcast).collective, Collective::Broadcast);
}

}  // namespace
}  // namespace commtune

namespace commtune {
namespace {

// Backends are one identity, parsed once: every value has its row, its name round-trips, and any
// other spelling is refused naming the input.
TEST(BackendTable, EveryBackendHasItsRowAndItsNameRoundTrips) {
  std::set<std::string> names, env_files;
  for (std::size_t i = 0; i < kBackendCount; ++i) {
    const auto kind = static_cast<BackendKind>(i);
    EXPECT_EQ(traits_of(kind).kind, kind);
    EXPECT_EQ(parse_backend(name_of(kind), "test"), kind);
    EXPECT_EQ(parse_backend_or_auto(name_of(kind), "test"), kind);
    names.insert(std::string(name_of(kind)));
    env_files.insert(std::string(traits_of(kind).env_file));
  }
  EXPECT_EQ(names.size(), kBackendCount);
  EXPECT_EQ(env_files.size(), kBackendCount);
  EXPECT_EQ(parse_backend_or_auto("auto", "--backend"), std::nullopt);
  for (const char* bad : {"tpu", "MPI", "", "auto"})
    EXPECT_THROW(parse_backend(bad, "--backend"), InputError) << bad;
  EXPECT_THROW(parse_backend_or_auto("gloo", "--backend"), InputError);
}

}  // namespace
}  // namespace commtune
