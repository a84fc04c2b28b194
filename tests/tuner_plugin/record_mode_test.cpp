// Record mode (COMMTUNE_TUNER_RECORD=FILE): the plugin changes nothing and appends NCCL's pick.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tuner_plugin/nccl_caller.hpp"

namespace commtune::testing {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class RecordMode : public ::testing::Test {
 protected:
  void SetUp() override {
    clear_logged_messages();
    ASSERT_NE(plugin_.v5(), nullptr);
    // Rules that would change every call: record mode must ignore them.
    ::setenv("NCCL_TUNER_CONFIG_FILE",
             write_temp_file("rules.conf", "allreduce,0,100000000,ring,simple,4,-1,-1\n").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("NCCL_TUNER_CONFIG_FILE");
    ::unsetenv("COMMTUNE_TUNER_RECORD");
  }
  void* init(std::size_t nranks, std::size_t nnodes) {
    void* ctx = nullptr;
    EXPECT_EQ(plugin_.v5()->init(&ctx, 7, nranks, nnodes, record_log, nullptr, nullptr), 0);
    return ctx;
  }
  LoadedPlugin plugin_;
};

TEST_F(RecordMode, ChangesNothingAndAppendsNcclsPickOncePerCall) {
  const auto record = write_temp_file("picks.csv", "");
  ::setenv("COMMTUNE_TUNER_RECORD", record.c_str(), 1);
  void* ctx = init(16, 2);
  CostTable table;
  table.mark_unavailable(kTree, kLL);
  table.cost[kRing][kLL128] = 1.0f;  // NCCL's pick: ring/ll128
  for (int i = 0; i < 3; ++i) {
    const auto r = call(*plugin_.v5(), ctx, kAllReduce, 4096, table);
    EXPECT_EQ(r.pick, std::make_pair(kRing, kLL128));
    EXPECT_EQ(r.nchannels, 0);
  }
  const auto r = call(*plugin_.v5(), ctx, kAllGather, 1 << 20, CostTable{}, 2, 1);
  EXPECT_EQ(r.pick, std::make_pair(kTree, kLL));
  EXPECT_EQ(r.nchannels, 0);
  CostTable none;
  for (auto& row : none.cost)
    for (auto& c : row) c = -1.0f;
  call(*plugin_.v5(), ctx, kBroadcast, 8, none);
  EXPECT_EQ(plugin_.v5()->finalize(ctx), 0);
  const auto lines = lines_of(record);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "allreduce,4096,ring,ll128,-1,2,16,1,0");
  EXPECT_EQ(lines[1], "allgather,1048576,tree,ll,-1,2,16,2,1");
  EXPECT_EQ(lines[2], "broadcast,8,-1,-1,-1,2,16,1,0");
}

TEST_F(RecordMode, SeveralContextsAppendToOneFile) {
  const auto record = write_temp_file("picks.csv", "");
  ::setenv("COMMTUNE_TUNER_RECORD", record.c_str(), 1);
  void* a = init(8, 1);
  void* b = init(4, 1);
  call(*plugin_.v5(), a, kAllReduce, 100);
  call(*plugin_.v5(), b, kAllReduce, 100);
  call(*plugin_.v5(), a, kAllReduce, 100);
  EXPECT_EQ(plugin_.v5()->finalize(a), 0);
  EXPECT_EQ(plugin_.v5()->finalize(b), 0);
  const auto lines = lines_of(record);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "allreduce,100,tree,ll,-1,1,8,1,0");
  EXPECT_EQ(lines[1], "allreduce,100,tree,ll,-1,1,4,1,0");
}

TEST_F(RecordMode, AnUnwritableFileIsAWarningAndChangesNothing) {
  ::setenv("COMMTUNE_TUNER_RECORD", "/nonexistent/commtune/picks.csv", 1);
  void* ctx = init(8, 1);
  const auto r = call(*plugin_.v5(), ctx, kAllReduce, 100);
  EXPECT_EQ(r.pick, std::make_pair(kTree, kLL));
  EXPECT_EQ(r.nchannels, 0);
  EXPECT_EQ(plugin_.v5()->finalize(ctx), 0);
  int warnings = 0;
  for (const auto& m : logged_messages()) warnings += m.level == 2;
  EXPECT_EQ(warnings, 1);
}

TEST_F(RecordMode, NeverWritesThroughASymbolicLink) {
  const auto target = write_temp_file("target.csv", "");
  const auto link = target + ".link";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ::setenv("COMMTUNE_TUNER_RECORD", link.c_str(), 1);
  void* ctx = init(8, 1);
  call(*plugin_.v5(), ctx, kAllReduce, 100);
  EXPECT_EQ(plugin_.v5()->finalize(ctx), 0);
  EXPECT_TRUE(lines_of(target).empty());
  ::unlink(link.c_str());
}

}  // namespace
}  // namespace commtune::testing
