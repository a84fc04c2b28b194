// The workload file (workload/workload.hpp): its JSON written and read back, the bad-input corpus's
// base accepted, and every rule of the reader refusing with the field's path.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "workload/step_totals.hpp"
#include "workload/workload.hpp"
#include "workload/workload_checks.hpp"

namespace commtune {
namespace {

using nlohmann::json;

GroupSpec split(SplitOp op, std::uint32_t value) {
  return GroupSpec{.kind = GroupKind::Split, .op = op, .value = value};
}

Workload sample() {
  Workload w{.world_ranks = 8, .collectives = {}, .source = {}};
  w.collectives.push_back({.collective = Collective::AllReduce,
                           .bytes = 26214400,
                           .datatype = DataType::BFloat16,
                           .op = ReduceOp::Max,
                           .group = GroupSpec{},
                           .group_ranks = 8,
                           .count = 3,
                           .label = "buckets 1-3"});
  w.collectives.push_back({.collective = Collective::AllGather,
                           .bytes = 1024,
                           .datatype = DataType::Float32,
                           .op = ReduceOp::Sum,
                           .group = split(SplitOp::Mod, 2),
                           .group_ranks = 4,
                           .count = 32,
                           .label = ""});
  w.collectives.push_back({.collective = Collective::ReduceScatter,
                           .bytes = 4096,
                           .datatype = DataType::Float16,
                           .op = ReduceOp::Sum,
                           .group = split(SplitOp::Div, 2),
                           .group_ranks = 2,
                           .count = 1,
                           .label = "x"});
  w.collectives.push_back({.collective = Collective::Broadcast,
                           .bytes = 8,
                           .datatype = DataType::Int64,
                           .op = ReduceOp::Sum,
                           .group = GroupSpec{.kind = GroupKind::IntraNode, .op = SplitOp::And, .value = 0},
                           .group_ranks = 4,
                           .count = 1,
                           .label = "step"});
  w.source = WorkloadSource{.kind = "nccl-log",
                            .files = {"rank0.log", "rank1.log"},
                            .parameters = nullptr,
                            .skipped_lines = 2,
                            .notes = {"shape inferred"}};
  return w;
}

std::string base_path() { return std::string(COMMTUNE_SOURCE_DIR) + "/tests/badinput/base/workload.json"; }

json base() {
  std::ifstream in(base_path());
  return json::parse(in);
}

// `edit` applied to the base is refused, naming `field` after the origin.
template <typename Edit>
void expect_refused(Edit edit, const std::string& field) {
  json j = base();
  edit(j);
  try {
    workload_from_json(j, "W.json");
    ADD_FAILURE() << "accepted; wanted a refusal naming " << field;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("W.json: " + field), std::string::npos) << e.what();
  }
}

TEST(WorkloadJson, RoundTrip) {
  const Workload w = sample();
  const json j = to_json(w);
  EXPECT_EQ(j["kind"], "commtune-workload");
  EXPECT_EQ(j["version"], 1);
  EXPECT_TRUE(is_workload_json(j));
  EXPECT_FALSE(j["collectives"][1].contains("op"));  // all-gather takes none
  EXPECT_EQ(j["collectives"][0]["op"], "max");
  EXPECT_EQ(j["collectives"][1]["group"], "MOD 2");
  EXPECT_EQ(workload_from_json(j, "W.json"), w);
  Workload preset = w;
  preset.source = WorkloadSource{
      .kind = "preset", .files = {}, .parameters = {{"params", 8}}, .skipped_lines = 0, .notes = {}};
  EXPECT_EQ(workload_from_json(to_json(preset), "W.json"), preset);
}

TEST(WorkloadJson, FileRoundTripAndBase) {
  const std::string path = ::testing::TempDir() + "/workload_roundtrip.json";
  std::ofstream(path) << to_json(sample()).dump(2);
  EXPECT_EQ(read_workload_file(path), sample());
  std::remove(path.c_str());
  const Workload b = read_workload_file(base_path());
  EXPECT_EQ(b.world_ranks, 8);
  EXPECT_EQ(b.collectives.size(), 4u);
  EXPECT_NO_THROW(check_workload(b, "base"));
}

TEST(WorkloadJson, OptionalSourceFieldsDefault) {
  json j = base();
  j["source"] = {{"kind", "torch-trace"}};
  j["collectives"][0].erase("label");
  const Workload w = workload_from_json(j, "W.json");
  EXPECT_TRUE(w.source.files.empty());
  EXPECT_EQ(w.source.skipped_lines, 0u);
  EXPECT_TRUE(w.source.parameters.is_null());
  EXPECT_EQ(w.collectives[0].label, "");
}

TEST(WorkloadJson, HeaderRefused) {
  expect_refused([](json& j) { j.erase("kind"); }, "not a commtune workload");
  expect_refused([](json& j) { j["version"] = 2; }, "version");
  expect_refused([](json& j) { j["extra"] = 1; }, "unknown key");
  expect_refused([](json& j) { j["world_ranks"] = 1; }, "world_ranks");
  expect_refused([](json& j) { j["collectives"] = json::array(); }, "collectives");
  expect_refused([](json& j) { j["collectives"] = 3; }, "collectives");
  expect_refused([](json& j) { j.erase("source"); }, "missing field 'source'");
}

TEST(WorkloadJson, NamesRefused) {
  expect_refused([](json& j) { j["collectives"][0]["collective"] = "alltoall"; },
                 "collectives[0].collective");
  expect_refused([](json& j) { j["collectives"][1]["datatype"] = "fp8"; }, "collectives[1].datatype");
  expect_refused([](json& j) { j["collectives"][0].erase("op"); }, "collectives[0]: missing field 'op'");
  expect_refused([](json& j) { j["collectives"][0]["op"] = "avg"; }, "collectives[0].op");
  expect_refused([](json& j) { j["collectives"][1]["op"] = "sum"; }, "collectives[1].op");
  expect_refused([](json& j) { j["collectives"][0]["group"] = "pairs"; }, "collectives[0].group");
  expect_refused([](json& j) { j["collectives"][0]["group"] = "MOD 0"; }, "collectives[0].group");
  expect_refused([](json& j) { j["collectives"][0]["label"] = 5; }, "collectives[0].label");
  expect_refused([](json& j) { j["collectives"][0]["root"] = 0; }, "collectives[0]: unknown key");
  expect_refused([](json& j) { j["source"]["kind"] = "guess"; }, "source.kind");
  expect_refused([](json& j) { j["source"]["files"] = "a.log"; }, "source.files");
  expect_refused([](json& j) { j["source"]["notes"] = json::array({1}); }, "source.notes[0]");
  expect_refused([](json& j) { j["source"]["parameters"] = json::array(); }, "source.parameters");
  expect_refused([](json& j) { j["source"]["skipped_lines"] = -1; }, "source.skipped_lines");
}

TEST(WorkloadJson, NumbersRefused) {
  expect_refused([](json& j) { j["collectives"][0]["bytes"] = 0; }, "collectives[0].bytes");
  expect_refused([](json& j) { j["collectives"][0]["bytes"] = 26214401; },
                 "collectives[0].bytes");  // half a bf16
  expect_refused([](json& j) { j["collectives"][1]["bytes"] = 1048560; }, "collectives[1].bytes");  // share
  expect_refused([](json& j) { j["collectives"][0]["bytes"] = 1ll << 41; }, "collectives[0].bytes");
  expect_refused([](json& j) { j["collectives"][0]["bytes"] = 2.5; }, "collectives[0].bytes");
  expect_refused([](json& j) { j["collectives"][0]["count"] = 0; }, "collectives[0].count");
  expect_refused([](json& j) { j["collectives"][0]["count"] = "2"; }, "collectives[0].count");
  expect_refused([](json& j) { j["collectives"][2]["group_ranks"] = 1; }, "collectives[2].group_ranks");
  expect_refused([](json& j) { j["collectives"][1]["group_ranks"] = 16; }, "collectives[1].group_ranks");
}

TEST(WorkloadJson, GroupsAgainstTheJob) {
  expect_refused([](json& j) { j["collectives"][0]["group_ranks"] = 4; },
                 "collectives[0].group_ranks");  // world
  expect_refused([](json& j) { j["collectives"][1]["group_ranks"] = 2; },
                 "collectives[1].group_ranks");                                                     // MOD 2
  expect_refused([](json& j) { j["collectives"][2]["group"] = "DIV 3"; }, "collectives[2].group");  // 3,3,2
  expect_refused([](json& j) { j["collectives"][3]["group_ranks"] = 3; }, "collectives[3].group_ranks");
  json j = base();
  j["collectives"][2]["group"] = "DIV 4";
  j["collectives"][2]["group_ranks"] = 4;
  EXPECT_NO_THROW(workload_from_json(j, "W.json"));
  j["collectives"][2]["group"] = "DIV 8";  // one group of every rank
  j["collectives"][2]["group_ranks"] = 8;
  EXPECT_NO_THROW(workload_from_json(j, "W.json"));
}

TEST(WorkloadChecks, InMemoryWorkloadsHoldTheSameRules) {
  Workload w = sample();
  EXPECT_NO_THROW(check_workload(w, "made"));
  w.collectives[1].bytes = 1000;  // not a whole 16-byte share on 4 ranks
  EXPECT_THROW(check_workload(w, "made"), InputError);
  w = sample();
  w.collectives[0].count = 0;
  EXPECT_THROW(check_workload(w, "made"), InputError);
  w = sample();
  w.source.kind = "";
  EXPECT_THROW(check_workload(w, "made"), InputError);
  w = sample();
  w.collectives.clear();
  EXPECT_THROW(check_workload(w, "made"), InputError);
}

TEST(StepTotals, PerGroupInFirstUse) {
  Workload w = sample();
  w.collectives.push_back(w.collectives[0]);
  const auto totals = totals_per_group(w);
  ASSERT_EQ(totals.size(), 4u);
  EXPECT_TRUE(totals[0].group.is_world());
  EXPECT_EQ(totals[0].collectives, 6u);
  EXPECT_EQ(totals[0].bytes, 6.0 * 26214400);
  EXPECT_EQ(totals[1].group.name(), "MOD 2");
  EXPECT_EQ(totals[1].bytes, 32.0 * 1024);
}

}  // namespace
}  // namespace commtune
