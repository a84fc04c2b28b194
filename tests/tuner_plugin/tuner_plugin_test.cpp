// commtune's tuner plugin, dlopen'ed and called as NCCL calls it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "tuner_plugin/nccl_caller.hpp"

namespace commtune::testing {
namespace {

const std::pair<int, int> kNcclPick{kTree, kLL};  // CostTable's own cheapest entry

// A communicator's context: init with the rules file in NCCL_TUNER_CONFIG_FILE, finalize at the end.
class Comm {
 public:
  Comm(const NcclTunerV5& tuner, const char* config, std::size_t nranks, std::size_t nnodes) : tuner_(tuner) {
    if (config != nullptr)
      ::setenv("NCCL_TUNER_CONFIG_FILE", config, 1);
    else
      ::unsetenv("NCCL_TUNER_CONFIG_FILE");
    EXPECT_EQ(tuner_.init(&ctx_, 42, nranks, nnodes, record_log, nullptr, nullptr), 0);
  }
  ~Comm() { EXPECT_EQ(tuner_.finalize(ctx_), 0); }
  CallResult operator()(int coll, std::size_t bytes, CostTable table = {}, int pipe_ops = 1,
                        int reg_buff = 0) {
    return call(tuner_, ctx_, coll, bytes, table, pipe_ops, reg_buff);
  }

 private:
  const NcclTunerV5& tuner_;
  void* ctx_ = nullptr;
};

class TunerPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_logged_messages();
    ASSERT_NE(plugin_.v5(), nullptr);
  }
  void TearDown() override { ::unsetenv("NCCL_TUNER_CONFIG_FILE"); }
  const NcclTunerV5& tuner() { return *plugin_.v5(); }
  std::string rules(const std::string& text) { return write_temp_file("nccl_tuner.conf", text); }
  static int warnings() {
    int n = 0;
    for (const auto& m : logged_messages()) n += m.level == 2;
    return n;
  }
  static bool logged(const std::string& part) {
    for (const auto& m : logged_messages())
      if (m.text.find(part) != std::string::npos) return true;
    return false;
  }
  static void expect_nccl_choice(const CallResult& r) {
    EXPECT_EQ(r.pick, kNcclPick);
    EXPECT_EQ(r.nchannels, 0);
    const CostTable untouched;
    for (int a = 0; a < 7; ++a)
      for (int p = 0; p < 3; ++p) EXPECT_EQ(r.table.cost[a][p], untouched.cost[a][p]);
  }
  LoadedPlugin plugin_;
};

const char* kHeader =
    "# collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff\n";

TEST_F(TunerPlugin, ExportsV5AndV6WithTheSameEntryPoints) {
  EXPECT_STREQ(tuner().name, "commtune");
  ASSERT_NE(plugin_.v6(), nullptr);
  EXPECT_EQ(plugin_.v6()->v5.getCollInfo, tuner().getCollInfo);
  EXPECT_EQ(plugin_.v6()->v5.init, tuner().init);
  EXPECT_EQ(plugin_.v6()->getChunkSize, nullptr) << "NCCL keeps its chunk size when getChunkSize is null";
}

TEST_F(TunerPlugin, InsideOutsideAndAtTheEdgesOfARule) {
  Comm comm(tuner(), rules(std::string(kHeader) + "allreduce,1024,65536,ring,simple,-1,2,16,-1,-1\n").c_str(),
            16, 2);
  for (std::size_t bytes : {1024u, 1025u, 4096u, 65535u, 65536u}) {
    const auto r = comm(kAllReduce, bytes);
    EXPECT_EQ(r.pick, std::make_pair(kRing, kSimple)) << bytes;
    EXPECT_EQ(r.nchannels, 0) << bytes;
  }
  for (std::size_t bytes : {0u, 1u, 1023u, 65537u, 1u << 30}) {
    SCOPED_TRACE(bytes);
    expect_nccl_choice(comm(kAllReduce, bytes));
  }
  expect_nccl_choice(comm(kAllGather, 4096));  // another collective
  expect_nccl_choice(comm(kBroadcast, 4096));
  EXPECT_EQ(warnings(), 0);
}

TEST_F(TunerPlugin, ChannelsOnlyWhereARuleSetsThem) {
  Comm comm(tuner(),
            rules("allreduce,0,100,ring,ll,8,-1,-1\nallreduce,101,200,-1,-1,4,-1,-1\nallreduce,201,300,tree,-"
                  "1,-1,-1,-1\n")
                .c_str(),
            8, 1);
  auto r = comm(kAllReduce, 50);
  EXPECT_EQ(r.pick, std::make_pair(kRing, kLL));
  EXPECT_EQ(r.nchannels, 8);
  r = comm(kAllReduce, 150);  // channels only: NCCL's algorithm and protocol
  EXPECT_EQ(r.pick, kNcclPick);
  EXPECT_EQ(r.nchannels, 4);
  CostTable table;
  table.mark_unavailable(kTree, kLL);
  r = comm(kAllReduce, 250, table);  // algorithm only: NCCL's cheapest available protocol of tree
  EXPECT_EQ(r.pick, std::make_pair(kTree, kLL128));
  EXPECT_EQ(r.nchannels, 0);
  EXPECT_EQ(comm(kAllReduce, 301).nchannels, 0);
}

TEST_F(TunerPlugin, WildcardsAndCommunicatorMismatch) {
  const auto file = rules(
      "allreduce,0,1000,ring,simple,-1,2,16\n"        // 2 nodes, 16 ranks only
      "allgather,0,1000,ring,ll128,-1,-1,16\n"        // any nodes, 16 ranks
      "broadcast,0,1000,ring,ll,-1,2,-1\n"            // 2 nodes, any ranks
      "reducescatter,0,1000,pat,simple,-1,-1,-1\n");  // anyone
  {
    Comm comm(tuner(), file.c_str(), 16, 2);
    EXPECT_EQ(comm(kAllReduce, 10).pick, std::make_pair(kRing, kSimple));
    EXPECT_EQ(comm(kAllGather, 10).pick, std::make_pair(kRing, kLL128));
    EXPECT_EQ(comm(kBroadcast, 10).pick, std::make_pair(kRing, kLL));
    EXPECT_EQ(comm(kReduceScatter, 10).pick, std::make_pair(kPat, kSimple));
  }
  {
    Comm comm(tuner(), file.c_str(), 16, 4);  // nNodes mismatch
    expect_nccl_choice(comm(kAllReduce, 10));
    EXPECT_EQ(comm(kAllGather, 10).pick, std::make_pair(kRing, kLL128));
    expect_nccl_choice(comm(kBroadcast, 10));
    EXPECT_EQ(comm(kReduceScatter, 10).pick, std::make_pair(kPat, kSimple));
  }
  {
    Comm comm(tuner(), file.c_str(), 8, 2);  // nRanks mismatch
    expect_nccl_choice(comm(kAllReduce, 10));
    expect_nccl_choice(comm(kAllGather, 10));
    EXPECT_EQ(comm(kBroadcast, 10).pick, std::make_pair(kRing, kLL));
  }
}

TEST_F(TunerPlugin, NumPipeOpsAndRegBuff) {
  Comm comm(
      tuner(),
      rules("allreduce,0,1000,ring,simple,-1,-1,-1,2,-1\nallreduce,0,1000,ring,ll,-1,-1,-1,-1,1\n").c_str(),
      4, 1);
  EXPECT_EQ(comm(kAllReduce, 10, {}, 2, 0).pick, std::make_pair(kRing, kSimple));
  EXPECT_EQ(comm(kAllReduce, 10, {}, 1, 1).pick, std::make_pair(kRing, kLL));
  expect_nccl_choice(comm(kAllReduce, 10, {}, 1, 0));
}

TEST_F(TunerPlugin, FirstMatchingRuleWins) {
  Comm comm(tuner(),
            rules("allreduce,0,1000,ring,simple,-1,-1,-1\nallreduce,0,1000000,tree,simple,2,-1,-1\n").c_str(),
            4, 1);
  auto r = comm(kAllReduce, 500);
  EXPECT_EQ(r.pick, std::make_pair(kRing, kSimple));
  EXPECT_EQ(r.nchannels, 0);
  r = comm(kAllReduce, 5000);
  EXPECT_EQ(r.pick, std::make_pair(kTree, kSimple));
  EXPECT_EQ(r.nchannels, 2);
}

TEST_F(TunerPlugin, UnavailableChoiceLeftAloneAndSaidOnce) {
  Comm comm(tuner(), rules("allreduce,0,1000,nvls,simple,4,-1,-1\n").c_str(), 4, 1);
  CostTable table;
  table.mark_unavailable(kNvls, kSimple);
  for (int i = 0; i < 3; ++i) {
    const auto r = comm(kAllReduce, 100, table);
    EXPECT_EQ(r.pick, kNcclPick);
    EXPECT_EQ(r.nchannels, 0) << "the rule's channels go with its choice";
  }
  int said = 0;
  for (const auto& m : logged_messages()) said += m.text.find("not available") != std::string::npos;
  EXPECT_EQ(said, 1);
  EXPECT_TRUE(logged("line 1"));
  // Available in another table: applied.
  EXPECT_EQ(comm(kAllReduce, 100).pick, std::make_pair(kNvls, kSimple));
}

TEST_F(TunerPlugin, NoRulesFileIsAWarningAndNcclsDefaults) {
  for (const char* config :
       {static_cast<const char*>(nullptr), "", "/nonexistent/commtune/nccl_tuner.conf"}) {
    clear_logged_messages();
    Comm comm(tuner(), config, 8, 1);
    expect_nccl_choice(comm(kAllReduce, 4096));
    EXPECT_EQ(warnings(), 1) << (config ? config : "(unset)");
  }
  const auto dir = write_temp_file("x", "");  // a directory is not a readable file
  clear_logged_messages();
  Comm comm(tuner(), dir.substr(0, dir.rfind('/')).c_str(), 8, 1);
  expect_nccl_choice(comm(kAllReduce, 4096));
  EXPECT_EQ(warnings(), 1);
}

TEST_F(TunerPlugin, EmptyAndCommentOnlyFilesHaveNoRules) {
  for (const char* text : {"", "# nothing\n\n   \n", kHeader}) {
    clear_logged_messages();
    Comm comm(tuner(), rules(text).c_str(), 8, 1);
    expect_nccl_choice(comm(kAllReduce, 4096));
    EXPECT_EQ(warnings(), 0);
  }
}

TEST_F(TunerPlugin, MalformedFilesAreIgnoredWhole) {
  const std::string good = "allreduce,0,1000,ring,simple,-1,-1,-1\n";
  const std::vector<std::string> bad{
      "garbage\n",
      "\x7f"
      "ELF\x02\x01\x01\x00\x00\x00",
      "allreduce,0,1000,ring,simple\n",                              // too few columns
      "allreduce,0,1000,ring,simple,-1,-1,-1,-1,-1,-1\n",            // too many
      "AllReduce,0,1000,ring,simple,-1,-1,-1\n",                     // not the lowercase token
      "allreduce,0,1000,ringg,simple,-1,-1,-1\n",                    // unknown algorithm
      "allreduce,0,1000,ring,ll256,-1,-1,-1\n",                      // unknown protocol
      "sendrecv,0,1000,ring,simple,-1,-1,-1\n",                      // unknown collective
      "allreduce,0,99999999999999999999999,ring,simple,-1,-1,-1\n",  // huge number
      "allreduce,-5,1000,ring,simple,-1,-1,-1\n",
      "allreduce,0,1e3,ring,simple,-1,-1,-1\n",
      "allreduce,1000,10,ring,simple,-1,-1,-1\n",     // min above max
      "allreduce,0,1000,ring,simple,100000,-1,-1\n",  // channels out of range
      "allreduce,0,1000,ring,simple,0,-1,-1\n",
      "allreduce,0,1000,ring,simple,-1,99999999999,-1\n",  // nNodes beyond int
      "allreduce,0,1000,ring,simple,-1,-1,-1,-1,2\n",      // regBuff not -1/0/1
      "allreduce,0,1000,ring,simple,-1,-1,-1,0x10\n",
      std::string(5000, 'a') + "\n",           // long line
      "# " + std::string(100000, '#') + "\n",  // long comment line
      "allreduce,0,1000,ring,simple,-1,-1,-1 # trailing\n",
  };
  for (const auto& text : bad) {
    SCOPED_TRACE(text.substr(0, 60));
    clear_logged_messages();
    Comm comm(tuner(), rules(good + text + good).c_str(), 8, 1);
    expect_nccl_choice(comm(kAllReduce, 500));
    EXPECT_EQ(warnings(), 1);
    EXPECT_TRUE(logged("line 2")) << "the warning names the bad line";
  }
}

TEST_F(TunerPlugin, ManyRulesAndWhitespaceAreFine) {
  std::string text = "  allreduce , 0 , 10 , ring , simple , -1 , -1 , -1\r\n";
  for (int i = 1; i < 5000; ++i)
    text +=
        "allgather," + std::to_string(i * 100) + "," + std::to_string(i * 100 + 99) + ",ring,ll,-1,-1,-1\n";
  Comm comm(tuner(), rules(text).c_str(), 8, 1);
  EXPECT_EQ(comm(kAllReduce, 5).pick, std::make_pair(kRing, kSimple));
  EXPECT_EQ(comm(kAllGather, 499950).pick, std::make_pair(kRing, kLL));
  expect_nccl_choice(comm(kAllGather, 500000));
  EXPECT_EQ(warnings(), 0);
}

TEST_F(TunerPlugin, SeveralContextsAtOnce) {
  const auto a = rules("allreduce,0,1000,ring,simple,-1,-1,-1\n");
  const auto b = write_temp_file("other.conf", "allreduce,0,1000,tree,ll128,3,-1,-1\n");
  Comm first(tuner(), a.c_str(), 8, 1);
  Comm second(tuner(), b.c_str(), 8, 1);
  Comm none(tuner(), nullptr, 8, 1);
  std::thread t1([&] {
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(first(kAllReduce, 100).pick, std::make_pair(kRing, kSimple));
  });
  std::thread t2([&] {
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(second(kAllReduce, 100).nchannels, 3);
  });
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(none(kAllReduce, 100).pick, kNcclPick);
  t1.join();
  t2.join();
  EXPECT_EQ(first(kAllReduce, 100).nchannels, 0);
  EXPECT_EQ(second(kAllReduce, 100).pick, std::make_pair(kTree, kLL128));
}

TEST_F(TunerPlugin, InitAndFinalizeRepeated) {
  const auto file = rules("allreduce,0,1000,ring,simple,-1,-1,-1\n");
  for (int i = 0; i < 500; ++i) {
    Comm comm(tuner(), file.c_str(), 8, 1);
    ASSERT_EQ(comm(kAllReduce, 100).pick, std::make_pair(kRing, kSimple));
  }
  EXPECT_EQ(tuner().finalize(nullptr), 0);
  // A null context (init never ran) leaves NCCL's choice.
  expect_nccl_choice(call(tuner(), nullptr, kAllReduce, 100));
}

TEST_F(TunerPlugin, LoadsAgainAfterDlclose) {
  const auto file = rules("allreduce,0,1000,ring,simple,-1,-1,-1\n");
  for (int i = 0; i < 3; ++i) {
    LoadedPlugin again;
    ASSERT_NE(again.v5(), nullptr);
    Comm comm(*again.v5(), file.c_str(), 8, 1);
    EXPECT_EQ(comm(kAllReduce, 100).pick, std::make_pair(kRing, kSimple));
  }
}

}  // namespace
}  // namespace commtune::testing
