// The knob validator: NCCL_ALGO / NCCL_PROTO grammar, value ranges, combinations per collective,
// and every NCCL preset under configs/.
#include <gtest/gtest.h>

#include <filesystem>

#include "knobs/nccl_list_syntax.hpp"
#include "knobs/nccl_knobs.hpp"
#include "core/errors.hpp"
#include "plan/config_loader.hpp"

namespace commtune {
namespace {

const std::vector<Collective> kAll{Collective::AllReduce, Collective::AllGather, Collective::Broadcast,
                                   Collective::ReduceScatter};

Setting with(std::map<std::string, std::string> knobs, std::vector<Collective> collectives = {}) {
  return Setting{"s", "", std::move(knobs), std::move(collectives)};
}

TEST(AlgoGrammar, PlainListEnablesOnlyItsTokens) {
  const TokenSelection s(SelectionKind::Algorithm, "Ring,Tree");
  EXPECT_EQ(s.enabled_for(Collective::AllReduce), (std::set<std::string>{"Ring", "Tree"}));
}

TEST(AlgoGrammar, NegationKeepsTheOthers) {
  const TokenSelection s(SelectionKind::Protocol, "^LL128");
  EXPECT_EQ(s.enabled_for(Collective::Broadcast), (std::set<std::string>{"LL", "Simple"}));
}

TEST(AlgoGrammar, FunctionEntriesOverrideTheDefaultEntryCaseInsensitively) {
  const TokenSelection s(SelectionKind::Algorithm, "ring;AllReduce:tree,ring;allgather:^ring");
  EXPECT_EQ(s.enabled_for(Collective::AllReduce), (std::set<std::string>{"Ring", "Tree"}));
  EXPECT_EQ(s.enabled_for(Collective::Broadcast), (std::set<std::string>{"Ring"}));
  EXPECT_EQ(s.enabled_for(Collective::AllGather).count("Ring"), 0u);
  EXPECT_EQ(s.enabled_for(Collective::AllGather).count("PAT"), 1u);
}

TEST(AlgoGrammar, RejectsWhatNcclRejects) {
  for (const char* bad :
       {"Rign", "ring, tree", "", "^", "ring;tree", "sendrecv:ring", "allreduce:", "ring,,tree"})
    EXPECT_THROW(TokenSelection(SelectionKind::Algorithm, bad), InputError) << bad;
  EXPECT_THROW(TokenSelection(SelectionKind::Protocol, "LL256"), InputError);
}

TEST(NcclKnobs, UnknownAlgorithmTokenIsAnInputErrorNamingIt) {
  try {
    validate_nccl_setting(with({{"NCCL_ALGO", "Ring,Bogus"}}), kAll);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("Bogus"), std::string::npos) << e.what();
  }
}

TEST(NcclKnobs, ValuesOutsideWhatNcclTakesAreRefused) {
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_P2P_DISABLE", "yes"}}), kAll), InputError);
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_SOCKET_NTHREADS", "17"}}), kAll), InputError);
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_P2P_LEVEL", "FAR"}}), kAll), InputError);
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_SOCKET_IFNAME", "eth0; rm -rf /"}}), kAll), InputError);
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_NOT_A_KNOB", "1"}}), kAll), InputError);
  EXPECT_THROW(validate_nccl_setting(with({{"nccl_algo", "Ring"}}), kAll), InputError);
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_MIN_CTAS", "8"}, {"NCCL_MAX_CTAS", "4"}}), kAll),
               InputError);
}

TEST(NcclKnobs, TheProductHasNoFaultKnobAndExtraKnobsAreChecked) {
  EXPECT_THROW(validate_nccl_setting(with({{"COMMTUNE_TEST_FAULT", "hang-init"}}), kAll), InputError);
  const KnobChecks extra{{"COMMTUNE_TEST_FAULT", [](const std::string& v) {
                            if (v != "hang-init") throw InputError("not a fault");
                          }}};
  EXPECT_NO_THROW(validate_nccl_setting(with({{"COMMTUNE_TEST_FAULT", "hang-init"}}), kAll, extra));
  EXPECT_THROW(validate_nccl_setting(with({{"COMMTUNE_TEST_FAULT", "explode"}}), kAll, extra), InputError);
}

TEST(NcclKnobs, AnOpenMpiKnobSaysWhichBackendItIsFor) {
  try {
    validate_nccl_setting(with({{"coll_tuned_allreduce_algorithm", "ring"}}), kAll);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--backend mpi"), std::string::npos) << e.what();
  }
}

TEST(NcclKnobs, AcceptsWhatNcclTakes) {
  EXPECT_NO_THROW(validate_nccl_setting(with({{"NCCL_P2P_LEVEL", "NVL"},
                                              {"NCCL_NET_GDR_LEVEL", "2"},
                                              {"NCCL_SOCKET_IFNAME", "^lo,docker"},
                                              {"NCCL_IB_HCA", "=mlx5_0:1"},
                                              {"NCCL_MIN_CTAS", "4"},
                                              {"NCCL_MAX_CTAS", "16"}}),
                                        kAll));
}

TEST(NcclKnobs, AnAlgorithmAllowedOnlyWhereItRuns) {
  EXPECT_THROW(validate_nccl_setting(with({{"NCCL_ALGO", "Tree"}}), kAll),
               InputError);  // broadcast: Ring only
  EXPECT_NO_THROW(validate_nccl_setting(with({{"NCCL_ALGO", "Tree"}}, {Collective::AllReduce}), kAll));
  EXPECT_NO_THROW(validate_nccl_setting(with({{"NCCL_ALGO", "allreduce:tree"}}), kAll));
  EXPECT_THROW(validate_nccl_setting(
                   with({{"NCCL_ALGO", "NVLS"}, {"NCCL_PROTO", "LL"}}, {Collective::AllReduce}), kAll),
               InputError);  // NVLS runs Simple only
}

TEST(NcclKnobs, ChannelBoundsGoThroughTheCommunicatorConfig) {
  EXPECT_TRUE(is_config_knob("NCCL_MIN_CTAS"));
  EXPECT_FALSE(is_config_knob("NCCL_ALGO"));
}

TEST(NcclPresets, EveryNcclPresetInConfigsValidates) {
  int checked = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(COMMTUNE_SOURCE_DIR) + "/configs")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("nccl-", 0) != 0 || entry.path().extension() != ".json") continue;
    const SweepConfig config = load_config_file(entry.path().string());
    for (const auto& setting : config.settings)
      EXPECT_NO_THROW(validate_nccl_setting(setting, config.options.collectives))
          << name << ": " << setting.name;
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

}  // namespace
}  // namespace commtune
