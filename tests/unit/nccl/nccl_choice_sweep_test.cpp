// "What NCCL chose" end to end with simulated workers: the simulated NCCL loads commtune's tuner
// plugin as NCCL does, the plugin (record mode) writes its record, and the supervisor's reading of
// it reaches the results, the table and the tune summary; an environment that loads a tuner plugin
// of its own is left alone and says so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "backend/nccl/simulated/simulated_tuner.hpp"
#include "backend/nccl/supervisor/choice_capture.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "measure/sampler.hpp"
#include "run_commtune.hpp"
#include "tuner_plugin/pick_recorder.hpp"
#include "tuner_plugin/tuner_rules.hpp"

namespace commtune {
namespace {

using namespace commtune::testing;

// Two settings, two collectives, sizes across the simulated cost model's crossovers (43 KB,
// 345 KB, 1.2 MB for all-reduce on 2 ranks), both placements, few samples.
std::string write_config(const ScratchDir& dir) {
  std::ofstream(dir.file("c.json")) << R"({"sweep": {"min_bytes": "1K", "max_bytes": "4M", "factor": 16,
    "collectives": ["allreduce", "allgather"], "min_samples": 5, "min_time": 0, "max_time": 0.02},
    "settings": [{"name": "tree", "knobs": {"NCCL_ALGO": "Tree"}, "collectives": ["allreduce"]}]})";
  return dir.file("c.json");
}

Ran sweep(const ScratchDir& dir, std::vector<std::string> environment, int ranks = 2) {
  std::filesystem::create_directory(dir.file("tmp"));
  environment.push_back("TMPDIR=" + dir.file("tmp"));
  return run_program({COMMTUNE_SIMULATED_BINARY, "sweep", "--backend", "nccl", "--ranks",
                      std::to_string(ranks), "--config", write_config(dir), "--out", dir.file("r.json")},
                     environment, dir);
}

// What the simulated NCCL's cost table makes NCCL pick, in the plugin's tokens.
NcclChoice expected_pick(const CaseResult& c) {
  const SimulatedCostTable table = simulated_cost_table(c.spec.collective, c.spec.bytes, c.nranks);
  const auto [algorithm, protocol] =
      tuner::nccl_pick(table.data(), kSimulatedAlgorithms, kSimulatedProtocols);
  return recorded_choice(tuner::algorithm_token(algorithm), tuner::protocol_token(protocol));
}

// The last cell of every row in the table's sections of the default setting, by (collective, size).
std::map<std::pair<std::string, std::uint64_t>, std::string> default_rows_last_cell(
    const std::string& table) {
  std::map<std::pair<std::string, std::uint64_t>, std::string> cells;
  std::istringstream in(table);
  std::string collective;  // empty outside a section of the default setting
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# setting ", 0) == 0) {
      const std::size_t comma = line.rfind(", ");
      collective = line.rfind("# setting default (", 0) == 0 && comma != std::string::npos
                       ? line.substr(comma + 2)
                       : "";
      continue;
    }
    const std::vector<std::string> w = words(line);
    if (collective.empty() || w.empty() || line[0] == '#') continue;
    cells[{collective, std::stoull(w.front())}] = w.back();
  }
  return cells;
}

TEST(NcclChoiceSweep, TheRecordReachesResultsTableAndTuneSummary) {
  ScratchDir dir;
  const Ran ran = sweep(dir, {});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.provenance["nccl"]["nccl_choice"]["recorded"], true) << doc.provenance["nccl"].dump();
  const std::map<std::pair<std::string, std::uint64_t>, std::string> table_cells =
      default_rows_last_cell(ran.out);
  std::set<std::string> seen;
  std::size_t defaults = 0;
  for (const CaseResult& c : doc.cases) {
    ASSERT_TRUE(c.measured()) << c.reason;
    if (c.setting != "default") {
      EXPECT_FALSE(c.nccl_choice) << c.setting;  // a setting that forces something records nothing
      continue;
    }
    ++defaults;
    ASSERT_TRUE(c.nccl_choice);
    ASSERT_TRUE(c.nccl_choice->recorded) << c.nccl_choice->reason;
    EXPECT_EQ(*c.nccl_choice, expected_pick(c)) << name_of(c.spec.collective) << " " << c.spec.bytes;
    seen.insert(describe(*c.nccl_choice));
    EXPECT_EQ(table_cells.at({std::string(name_of(c.spec.collective)), c.spec.bytes}),
              short_form(*c.nccl_choice))
        << c.spec.bytes;
  }
  EXPECT_EQ(defaults, 2u * 2u * 4u);  // 2 collectives x 4 sizes x 2 placements
  EXPECT_GE(seen.size(), 3u);         // the simulated cost model crosses over within the sweep
  EXPECT_NE(ran.out.find("nccl-chose"), std::string::npos);
  EXPECT_NE(ran.out.find("NCCL by itself chose "), std::string::npos)
      << ran.out;  // the end-of-sweep tune summary
  const Ran tuned = run_program({COMMTUNE_BINARY, "tune", dir.file("r.json")}, {}, dir);
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const CaseResult* small = find_case(doc, "default");
  ASSERT_NE(small, nullptr);
  EXPECT_NE(tuned.out.find("NCCL by itself chose " + describe(*small->nccl_choice) + " here"),
            std::string::npos)
      << tuned.out;
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("tmp")));  // the private record directories are gone
}

TEST(NcclChoiceSweep, AnEnvironmentsOwnTunerPluginIsLeftAloneAndSaid) {
  ScratchDir dir;
  const Ran ran = sweep(dir, {"NCCL_TUNER_PLUGIN=/nonexistent/libnccl-tuner-cloud.so"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  const std::string reason =
      "tuner plugin of the environment: NCCL_TUNER_PLUGIN=/nonexistent/libnccl-tuner-cloud.so; NCCL's choice "
      "not recorded";
  EXPECT_EQ(doc.provenance["nccl"]["nccl_choice"]["reason"], reason);
  EXPECT_EQ(doc.provenance["environment"]["NCCL_TUNER_PLUGIN"], "/nonexistent/libnccl-tuner-cloud.so");
  for (const CaseResult& c : doc.cases) {
    EXPECT_TRUE(c.measured()) << c.reason;  // not recorded is not a failure
    if (c.setting == "default") {
      EXPECT_EQ(c.nccl_choice, unrecorded_choice(reason));
    }
  }
  EXPECT_NE(ran.out.find("nccl-chose: not recorded (" + reason + ")"), std::string::npos) << ran.out;
  const Ran tuned = run_program({COMMTUNE_BINARY, "tune", dir.file("r.json")}, {}, dir);
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  EXPECT_NE(tuned.out.find("# note: NCCL's own choice not recorded (" + reason + ")"), std::string::npos)
      << tuned.out;
  EXPECT_EQ(tuned.out.find("NCCL by itself chose"), std::string::npos);
}

// The simulated workers read their intervals off a clock of CUDA events' resolution: cases whose
// iterations are short against it are sampled in blocks (each sample a block's mean, the block in
// the results), long ones one iteration per sample.
TEST(NcclSweepTiming, ShortIterationsAreTimedInBlocks) {
  ScratchDir dir;
  const Ran ran = sweep(dir, {"NCCL_TUNER_PLUGIN=none"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  std::size_t blocked = 0, single = 0;
  for (const CaseResult& c : doc.cases) {
    ASSERT_TRUE(c.measured()) << c.reason;
    const double iteration_s = c.time_us.median * 1e-6;
    if (c.sample_unit == SampleUnit::Block) {
      ++blocked;
      EXPECT_GE(c.sample_block, 2u);
      EXPECT_GE(static_cast<double>(c.sample_block) * iteration_s,
                0.9 * kResolutionsPerBlock * kCudaEventResolutionS)
          << c.spec.bytes;
    } else {
      ++single;
      EXPECT_EQ(c.sample_unit, SampleUnit::Iteration);
      EXPECT_GE(iteration_s, 0.9 * kResolutionsPerBlock * kCudaEventResolutionS / 2) << c.spec.bytes;
    }
    if (c.spec.bytes <= 1024) {
      EXPECT_EQ(c.sample_unit, SampleUnit::Block) << c.spec.bytes;
    }
  }
  EXPECT_GT(blocked, 0u);
  EXPECT_GT(single, 0u);
}

// One rank (a one-GPU machine without a launcher): NCCL never asks a tuner there, so nothing is
// recorded and every default case says why; the record directory is never made.
TEST(NcclChoiceSweep, OneRankIsNotAskedAndSaysSo) {
  ScratchDir dir;
  const Ran ran = sweep(dir, {}, 1);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.provenance["nccl"]["nccl_choice"]["recorded"], false);
  EXPECT_EQ(doc.provenance["nccl"]["nccl_choice"]["reason"], kNotAskedAtOneRank);
  std::size_t defaults = 0;
  for (const CaseResult& c : doc.cases) {
    ASSERT_TRUE(c.measured()) << c.reason;
    if (c.setting != "default") continue;
    ++defaults;
    EXPECT_EQ(c.nccl_choice, unrecorded_choice(kNotAskedAtOneRank));
  }
  EXPECT_GT(defaults, 0u);
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("tmp")));
}

// The simulated NCCL itself follows NCCL at one rank: commtune's plugin in record mode, loaded
// for a one-rank communicator, is never asked, so its record stays empty; at two ranks it is asked.
TEST(SimulatedTuner, NeverAskedAtOneRank) {
  ScratchDir dir;
  for (const int ranks : {1, 2}) {
    const std::string record = dir.file("rank-" + std::to_string(ranks) + ".record");
    setenv("NCCL_TUNER_PLUGIN", COMMTUNE_TUNER_PLUGIN_PATH, 1);
    setenv("COMMTUNE_TUNER_RECORD", record.c_str(), 1);
    {
      SimulatedTuner tuner(ranks, 1);
      tuner.before_collective(Collective::AllReduce, 1 << 20);
    }
    unsetenv("NCCL_TUNER_PLUGIN");
    unsetenv("COMMTUNE_TUNER_RECORD");
    const bool written = std::filesystem::exists(record) && std::filesystem::file_size(record) > 0;
    EXPECT_EQ(written, ranks > 1) << ranks << " ranks";
  }
}

// A tuner the loader finds by NCCL's default name, NCCL_TUNER_PLUGIN unset: also the environment's.
TEST(NcclChoiceSweep, ATunerFoundByNcclsDefaultNameIsTheEnvironments) {
  ScratchDir dir;
  std::filesystem::create_directory(dir.file("lib"));
  std::filesystem::copy_file(COMMTUNE_TUNER_PLUGIN_PATH, dir.file("lib/libnccl-tuner.so"));
  const Ran ran = sweep(dir, {"LD_LIBRARY_PATH=" + dir.file("lib")});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const ResultsDocument doc = load_results(dir.file("r.json"));
  EXPECT_EQ(doc.provenance["nccl"]["nccl_choice"]["recorded"], false);
  const CaseResult* first = find_case(doc, "default");
  ASSERT_NE(first, nullptr);
  ASSERT_TRUE(first->nccl_choice);
  EXPECT_FALSE(first->nccl_choice->recorded);
  EXPECT_NE(first->nccl_choice->reason.find("libnccl-tuner.so"), std::string::npos)
      << first->nccl_choice->reason;
}

}  // namespace
}  // namespace commtune
