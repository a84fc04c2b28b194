// Round trip: a recorded NCCL results fixture -> `commtune tune` -> `commtune export --format
// nccl-tuner` -> the plugin reads the exported file. For the midpoint of every rule it returns
// that rule's algorithm and protocol; for sizes outside the rules, NCCL's own choice, 0 channels.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "tuner_plugin/nccl_caller.hpp"

namespace commtune::testing {
namespace {

struct Row {
  int coll, algo, proto, channels;
  std::uint64_t min, max;
  long nnodes, nranks;
};

int index_of(const std::vector<std::string>& names, const std::string& token) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == token) return static_cast<int>(i);
  ADD_FAILURE() << "unknown token " << token;
  return -1;
}

std::vector<Row> read_rows(const std::string& path, std::string& header) {
  const std::vector<std::string> colls{"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
  const std::vector<std::string> algos{"tree",      "ring", "collnet_direct", "collnet_chain", "nvls",
                                       "nvls_tree", "pat"};
  const std::vector<std::string> protos{"ll", "ll128", "simple"};
  std::ifstream in(path);
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      header += line + "\n";
      continue;
    }
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    EXPECT_GE(f.size(), 8u) << line;
    if (f.size() < 8) continue;
    rows.push_back({index_of(colls, f[0]), index_of(algos, f[3]), index_of(protos, f[4]), std::stoi(f[5]),
                    std::stoull(f[1]), std::stoull(f[2]), std::stol(f[6]), std::stol(f[7])});
  }
  return rows;
}

std::string run(const std::string& command) {
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return command;
}

TEST(TunerPluginRoundTrip, ExportedRulesComeBackFromThePlugin) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("commtune-tuner-roundtrip-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string commtune = COMMTUNE_EXECUTABLE;
  const std::string fixture = std::string(COMMTUNE_SOURCE_DIR) + "/tests/fixtures/nccl-results-h100x16.json";
  run(commtune + " tune '" + fixture + "' --out '" + (dir / "rec.json").string() + "' > /dev/null");
  run(commtune + " export '" + (dir / "rec.json").string() + "' --format nccl-tuner --out '" +
      (dir / "nccl_tuner.conf").string() + "' 2> /dev/null");

  std::string header;
  const auto rows = read_rows((dir / "nccl_tuner.conf").string(), header);
  ASSERT_FALSE(rows.empty());
  // The header names the two variables, with the plugin this build made.
  EXPECT_NE(header.find(std::string("NCCL_TUNER_PLUGIN=") +
                        fs::weakly_canonical(COMMTUNE_TUNER_PLUGIN_PATH).string()),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("NCCL_TUNER_CONFIG_FILE="), std::string::npos);

  LoadedPlugin plugin;
  ASSERT_NE(plugin.v5(), nullptr);
  ::setenv("NCCL_TUNER_CONFIG_FILE", (dir / "nccl_tuner.conf").c_str(), 1);
  clear_logged_messages();
  void* ctx = nullptr;
  ASSERT_EQ(plugin.v5()->init(&ctx, 1, static_cast<std::size_t>(rows[0].nranks),
                              static_cast<std::size_t>(rows[0].nnodes), record_log, nullptr, nullptr),
            0);
  for (const auto& m : logged_messages()) EXPECT_NE(m.level, 2) << m.text;
  const std::pair<int, int> nccl_pick = CostTable{}.pick();

  auto covered = [&](int coll, std::uint64_t bytes) {
    for (const auto& r : rows)
      if (r.coll == coll && bytes >= r.min && bytes <= r.max) return true;
    return false;
  };
  for (const auto& r : rows) {
    const std::uint64_t mid = r.min + (r.max - r.min) / 2;
    const auto got = call(*plugin.v5(), ctx, r.coll, mid);
    EXPECT_EQ(got.pick, std::make_pair(r.algo, r.proto))
        << "rule " << r.min << ".." << r.max << " at " << mid;
    EXPECT_EQ(got.nchannels, r.channels > 0 ? r.channels : 0);
  }
  int outside = 0;
  for (int coll = 0; coll < 5; ++coll) {
    std::vector<std::uint64_t> sizes{0, 1, 7, std::uint64_t{1} << 40};
    for (const auto& r : rows) {
      if (r.min > 0) sizes.push_back(r.min - 1);
      sizes.push_back(r.max + 1);
      sizes.push_back(r.max * 2);
    }
    for (const auto bytes : sizes) {
      if (covered(coll, bytes)) continue;
      ++outside;
      const auto got = call(*plugin.v5(), ctx, coll, bytes);
      EXPECT_EQ(got.pick, nccl_pick) << coll << " " << bytes;
      EXPECT_EQ(got.nchannels, 0) << coll << " " << bytes;
    }
  }
  EXPECT_GT(outside, 20);
  EXPECT_EQ(plugin.v5()->finalize(ctx), 0);
  ::unsetenv("NCCL_TUNER_CONFIG_FILE");
  fs::remove_all(dir);
}

// A recommendation of two communicator shapes (--groups): the world of 16 ranks on 2 nodes wins
// with Tree/LL at 1 MiB, the inter-node groups of 2 ranks on 2 nodes with Ring/Simple; the
// intra-node groups (8 ranks on 1 node) have no winner. Exported and read by the plugin, each
// communicator gets only its own shape's rule.
constexpr const char* kTwoShapes = R"({"kind": "commtune-recommendation", "version": 1, "backend": "nccl",
 "nranks": 16, "nnodes": 2, "min_margin": 0.02, "objective": "test", "confirmed": false, "confirm_rounds": 0,
 "disqualified": {}, "notes": [], "choices": [],
 "settings": [{"name": "default", "description": "", "knobs": {}, "collectives": []},
              {"name": "tree-ll", "description": "", "knobs": {"NCCL_ALGO": "Tree", "NCCL_PROTO": "LL"}, "collectives": []},
              {"name": "ring-simple", "description": "", "knobs": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "Simple"}, "collectives": []}],
 "sizes": [
  {"collective": "allreduce", "bytes": 1048576, "winner": "tree-ll", "gain": 0.2, "default_us": 100, "winner_us": 80, "confirmed": false, "reason": ""},
  {"collective": "allreduce", "bytes": 1048576, "winner": "ring-simple", "gain": 0.3, "default_us": 100, "winner_us": 70, "confirmed": false, "reason": "",
   "group": {"spec": "MOD 8", "nranks": 2, "nnodes": 2}},
  {"collective": "allreduce", "bytes": 1048576, "winner": "", "gain": 0, "default_us": 50, "winner_us": 0, "confirmed": false, "reason": "no setting is clearly faster",
   "group": {"spec": "DIV 8", "nranks": 8, "nnodes": 1}}]})";

TEST(TunerPluginRoundTrip, EachCommunicatorShapeGetsOnlyItsOwnRules) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("commtune-tuner-shapes-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "rec.json") << kTwoShapes;
  run(std::string(COMMTUNE_EXECUTABLE) + " export '" + (dir / "rec.json").string() +
      "' --format nccl-tuner --out '" + (dir / "nccl_tuner.conf").string() + "' 2> /dev/null");
  std::string header;
  const auto rows = read_rows((dir / "nccl_tuner.conf").string(), header);
  ASSERT_EQ(rows.size(), 2u) << header;
  LoadedPlugin plugin;
  ASSERT_NE(plugin.v5(), nullptr);
  ::setenv("NCCL_TUNER_CONFIG_FILE", (dir / "nccl_tuner.conf").c_str(), 1);
  const auto pick_for = [&](std::size_t nranks, std::size_t nnodes) {
    void* ctx = nullptr;
    EXPECT_EQ(plugin.v5()->init(&ctx, 7, nranks, nnodes, record_log, nullptr, nullptr), 0);
    const auto got = call(*plugin.v5(), ctx, kAllReduce, std::size_t{1} << 20).pick;
    EXPECT_EQ(plugin.v5()->finalize(ctx), 0);
    return got;
  };
  EXPECT_EQ(pick_for(16, 2), std::make_pair(kTree, kLL));     // the world
  EXPECT_EQ(pick_for(2, 2), std::make_pair(kRing, kSimple));  // an inter-node group (MOD 8)
  EXPECT_EQ(pick_for(8, 1), CostTable{}.pick());              // an intra-node group: NCCL's own
  ::unsetenv("NCCL_TUNER_CONFIG_FILE");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commtune::testing
