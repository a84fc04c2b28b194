// Knob grammars: NCCL_ALGO / NCCL_PROTO per NCCL's list syntax, Open MPI algorithm names and
// numbers, and the inert-value rule that keeps shell code out of every export.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "knobs/knob_grammar.hpp"
#include "knobs/nccl_list_syntax.hpp"
#include "knobs/ompi_algorithms.hpp"

namespace commtune {
namespace {

TEST(NcclListSyntax, ParsesPerFunctionEntriesAndCanonicalisesTokens) {
  const auto list = parse_nccl_list("ring,tree;allgather:^ring", NcclListKind::Algorithm);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].function, "");
  EXPECT_EQ(list[0].tokens, (std::vector<std::string>{"Ring", "Tree"}));
  EXPECT_EQ(list[1].function, "allgather");
  EXPECT_TRUE(list[1].negated);
  EXPECT_EQ(format_tokens(*entry_for(list, Collective::AllGather)), "^Ring");
  EXPECT_EQ(format_tokens(*entry_for(list, Collective::AllReduce)), "Ring,Tree");
}

TEST(NcclListSyntax, RejectsWhatNcclRejects) {
  EXPECT_THROW(parse_nccl_list("ring, tree", NcclListKind::Algorithm), InputError);  // whitespace
  EXPECT_THROW(parse_nccl_list("RING_X", NcclListKind::Algorithm), InputError);
  EXPECT_THROW(parse_nccl_list("allreduce:ring;tree", NcclListKind::Algorithm),
               InputError);  // 2nd without func
  EXPECT_THROW(parse_nccl_list("sendrecv:ring", NcclListKind::Algorithm), InputError);
  EXPECT_THROW(parse_nccl_list("Ring", NcclListKind::Protocol), InputError);
  EXPECT_THROW(parse_nccl_list("", NcclListKind::Protocol), InputError);
  EXPECT_NO_THROW(parse_nccl_list("^LL", NcclListKind::Protocol));
}

TEST(NcclListSyntax, ComposedValuesParseBack) {
  const std::string text = format_nccl_list({{"allreduce", false, {"Tree"}}, {"allgather", false, {"Ring"}}});
  EXPECT_EQ(text, "allreduce:Tree;allgather:Ring");
  EXPECT_NO_THROW(parse_nccl_list(text, NcclListKind::Algorithm));
}

TEST(OmpiAlgorithms, NamesAndNumbers) {
  EXPECT_EQ(ompi_algorithm_number(Collective::AllReduce, "ring"), 4);
  EXPECT_EQ(ompi_algorithm_number(Collective::AllReduce, "6"), 6);
  EXPECT_EQ(ompi_algorithm_number(Collective::AllReduce, "7"), std::nullopt);
  EXPECT_EQ(ompi_algorithm_number(Collective::Broadcast, "binomial"), 6);
  EXPECT_EQ(ompi_knob_collective("coll_tuned_bcast_algorithm_segmentsize"), Collective::Broadcast);
  EXPECT_FALSE(is_ompi_algorithm_knob("coll_tuned_bcast_algorithm_segmentsize"));
  EXPECT_EQ(ompi_collective_id(Collective::AllReduce), 2);
}

TEST(KnobGrammar, RefusesAnythingThatCouldInjectShellCode) {
  for (const std::string bad :
       {"1; rm -rf /", "$(id)", "`id`", "a b", "x'y", "x\"y", "a\nb", "a|b", "a>b", "a*", "a\\b"})
    EXPECT_THROW(validate_knob(BackendKind::Nccl, "NCCL_NET", bad), InputError) << bad;
  EXPECT_THROW(validate_knob(BackendKind::Nccl, "NCCL NET", "1"), InputError);
  EXPECT_THROW(validate_knob(BackendKind::Nccl, "A=B", "1"), InputError);
  EXPECT_THROW(validate_knob(BackendKind::Nccl, "NCCL_ALGO", "ring;x"), InputError);
  EXPECT_THROW(validate_knob(BackendKind::Mpi, "coll_tuned_allreduce_algorithm", "fastest"), InputError);
  EXPECT_NO_THROW(validate_knob(BackendKind::Mpi, "coll_tuned_allreduce_algorithm", "ring"));
  EXPECT_NO_THROW(validate_knob(BackendKind::Nccl, "NCCL_SOCKET_IFNAME", "^lo,docker0"));
}

// A tampered recommendation must not reach a training job's environment: only knobs of
// commtune's tables are exported, each with its own value grammar.
TEST(KnobGrammar, ExportsOnlyKnobsOfTheKnobTables) {
  for (const BackendKind backend : {BackendKind::Nccl, BackendKind::Mpi})
    for (const char* name :
         {"BASH_ENV", "LD_PRELOAD", "PATH", "PROMPT_COMMAND", "COMMTUNE_TEST_FAULT", "NCCL_NOT_A_KNOB"})
      EXPECT_THROW(validate_knob(backend, name, "1"), InputError) << name_of(backend) << " " << name;
  EXPECT_THROW(validate_knob(BackendKind::Nccl, "NCCL_P2P_DISABLE", "$(touch /tmp/x)"), InputError);
  EXPECT_THROW(validate_knob(BackendKind::Nccl, "NCCL_P2P_DISABLE", "2"),
               InputError);  // the knob's own grammar
  EXPECT_THROW(validate_knob(BackendKind::Mpi, "btl_tcp_if_include", "eth0"), InputError);
  EXPECT_THROW(validate_knob(BackendKind::Mpi, "coll_tuned_allreduce_algorithm_evil", "1"), InputError);
  EXPECT_THROW(validate_knob(BackendKind::Mpi, "coll_tuned_allreduce_algorithm_segmentsize", "-1"),
               InputError);
  EXPECT_NO_THROW(validate_knob(BackendKind::Mpi, "coll_tuned_allreduce_algorithm_segmentsize", "65536"));
  EXPECT_NO_THROW(validate_knob(BackendKind::Nccl, "NCCL_P2P_LEVEL", "NVL"));
}

}  // namespace
}  // namespace commtune
