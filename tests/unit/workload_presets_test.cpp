// The presets (workload/presets.hpp) against the frameworks' documented defaults (docs/workload.md):
// DDP's buckets of a 1.3B fp32 model, ZeRO-1/2's buckets and shards, ZeRO-3 and FSDP per layer for
// 8B in bf16 on 8 ranks, Megatron TP with and without sequence parallelism; the groups in --groups
// terms; each impossible number refused naming its flag; golden files of two presets' JSON.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "unit/golden.hpp"
#include "workload/preset_inputs.hpp"
#include "workload/presets.hpp"

namespace commtune {
namespace {

PresetRequest request(const std::string& preset, std::map<std::string, std::string> flags, bool sp = false) {
  return PresetRequest{.preset = preset, .flags = std::move(flags), .sequence_parallel = sp};
}

struct Row {
  Collective collective;
  std::uint64_t bytes;
  std::uint64_t count;
};

std::vector<Row> rows(const Workload& w) {
  std::vector<Row> out;
  for (const auto& c : w.collectives) out.push_back({c.collective, c.bytes, c.count});
  return out;
}

void expect_rows(const Workload& w, const std::vector<Row>& want) {
  const auto got = rows(w);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].collective, want[i].collective) << i;
    EXPECT_EQ(got[i].bytes, want[i].bytes) << i;
    EXPECT_EQ(got[i].count, want[i].count) << i;
  }
}

double step_bytes(const Workload& w, Collective c) {
  double total = 0;
  for (const auto& e : w.collectives)
    if (e.collective == c) total += static_cast<double>(e.bytes) * static_cast<double>(e.count);
  return total;
}

constexpr auto AR = Collective::AllReduce;
constexpr auto AG = Collective::AllGather;
constexpr auto RS = Collective::ReduceScatter;

TEST(PresetNumbers, ParamCounts) {
  EXPECT_EQ(parse_param_count("8B", "--params"), 8'000'000'000u);
  EXPECT_EQ(parse_param_count("1.3B", "--params"), 1'300'000'000u);
  EXPECT_EQ(parse_param_count("350m", "--params"), 350'000'000u);
  EXPECT_EQ(parse_param_count("1.25K", "--params"), 1250u);
  EXPECT_EQ(parse_param_count("125000000", "--params"), 125'000'000u);
  for (const char* bad :
       {"0", "1.5", "1.", ".5", "8G", "-8B", "8 B", "1e9", "", "2000T", "1234567890123456789"})
    EXPECT_THROW(parse_param_count(bad, "--params"), InputError) << bad;
  EXPECT_EQ(parse_training_dtype("fp32", "--dtype"), DataType::Float32);
  EXPECT_EQ(parse_training_dtype("float32", "--dtype"), DataType::Float32);
  EXPECT_EQ(parse_training_dtype("bf16", "--dtype"), DataType::BFloat16);
  EXPECT_THROW(parse_training_dtype("int8", "--dtype"), InputError);
}

// PyTorch DDP: first bucket 1 MiB (dist._DEFAULT_FIRST_BUCKET_BYTES), then bucket_cap_mb = 25 MiB,
// the last the remainder; 1.3e9 fp32 gradients are 5.2e9 bytes.
TEST(Presets, DdpBucketsOfA13BFp32Model) {
  const Workload w =
      make_preset_workload(request("ddp", {{"--params", "1.3B"}, {"--dtype", "fp32"}, {"--dp", "8"}}));
  EXPECT_EQ(w.world_ranks, 8);
  expect_rows(w, {{AR, 1048576, 1}, {AR, 26214400, 198}, {AR, 8500224, 1}});
  EXPECT_EQ(step_bytes(w, AR), 1.3e9 * 4);
  for (const auto& c : w.collectives) {
    EXPECT_TRUE(c.group.is_world());
    EXPECT_EQ(c.group_ranks, 8);
    EXPECT_EQ(c.datatype, DataType::Float32);
  }
  EXPECT_EQ(w.source.kind, "preset");
  EXPECT_EQ(w.source.parameters["params"], 1'300'000'000u);
}

TEST(Presets, DdpBucketFlagAndTensorParallelGroups) {
  const Workload w = make_preset_workload(
      request("ddp", {{"--params", "100M"}, {"--tp", "2"}, {"--dp", "4"}, {"--bucket", "50"}}));
  // 5e7 bf16 gradients per tensor-parallel rank: 1e8 bytes; 1 MiB, then 50 MiB buckets.
  expect_rows(w, {{AR, 1048576, 1}, {AR, 52428800, 1}, {AR, 100000000 - 1048576 - 52428800, 1}});
  EXPECT_EQ(w.world_ranks, 8);
  EXPECT_EQ(w.collectives[0].group.name(), "MOD 2");
  EXPECT_EQ(w.collectives[0].group_ranks, 4);
}

// DeepSpeed ZeRO-1/2: reduce_bucket_size = allgather_bucket_size = 5e8 elements.
TEST(Presets, ZeroStagesOneAndTwo) {
  const Workload eight_b = make_preset_workload(request("zero2", {{"--params", "8B"}, {"--dp", "8"}}));
  expect_rows(eight_b, {{RS, 1'000'000'000, 16}, {AG, 1'000'000'000, 16}});
  const Workload small = make_preset_workload(request("zero1", {{"--params", "1.3B"}, {"--dp", "8"}}));
  expect_rows(small, {{RS, 1'000'000'000, 2}, {RS, 600'000'000, 1}, {AG, 1'300'000'000, 2}});
  EXPECT_EQ(step_bytes(small, RS), 1.3e9 * 2);
  EXPECT_EQ(step_bytes(small, AG), 1.3e9 * 2);
}

// ZeRO-3 of 8B in bf16 on 8 ranks, 32 layers: 2.5e8 parameters a layer, 5e8 bytes gathered per
// layer in each pass; gradient buckets of two whole layers (5e8 elements).
TEST(Presets, Zero3Of8BBf16On8Ranks) {
  const Workload w =
      make_preset_workload(request("zero3", {{"--params", "8B"}, {"--layers", "32"}, {"--dp", "8"}}));
  expect_rows(w, {{AG, 500'000'000, 32}, {AG, 500'000'000, 32}, {RS, 1'000'000'000, 16}});
  EXPECT_EQ(w.source.parameters["framework_defaults"]["layers_per_bucket"], 2);
}

TEST(Presets, FsdpPerLayer) {
  const Workload w =
      make_preset_workload(request("fsdp", {{"--params", "8B"}, {"--layers", "32"}, {"--dp", "8"}}));
  expect_rows(w, {{AG, 500'000'000, 32}, {AG, 500'000'000, 32}, {RS, 500'000'000, 32}});
  // A layer that does not split into 16-byte shares is padded, as FSDP pads its flat parameter.
  const Workload odd =
      make_preset_workload(request("fsdp", {{"--params", "1000"}, {"--layers", "10"}, {"--dp", "4"}}));
  EXPECT_EQ(odd.collectives[0].bytes, 256u);  // 100 bf16 = 200 bytes, up to 4 shares of 64
}

// Megatron TP: 2 all-reduces a layer in each pass of micro-batch x seq x hidden elements.
TEST(Presets, MegatronTensorParallel) {
  const std::map<std::string, std::string> flags{
      {"--layers", "32"}, {"--hidden", "4096"}, {"--seq", "4096"}, {"--micro-batch", "1"}, {"--tp", "8"}};
  const Workload w = make_preset_workload(request("megatron-tp", flags));
  expect_rows(w, {{AR, 33554432, 64}, {AR, 33554432, 64}});
  EXPECT_TRUE(w.collectives[0].group.is_world());
  auto two_dp = flags;
  two_dp["--dp"] = "2";
  const Workload wide = make_preset_workload(request("megatron-tp", two_dp));
  EXPECT_EQ(wide.world_ranks, 16);
  EXPECT_EQ(wide.collectives[0].group.name(), "DIV 8");
  EXPECT_EQ(wide.collectives[0].group_ranks, 8);
  const Workload sp = make_preset_workload(request("megatron-tp", flags, true));
  expect_rows(
      sp,
      {{AG, 33554432, 64}, {RS, 33554432, 64}, {AG, 33554432, 64}, {AG, 33554432, 64}, {RS, 33554432, 64}});
}

void expect_flag_refused(const PresetRequest& r, const std::string& flag) {
  try {
    make_preset_workload(r);
    ADD_FAILURE() << "accepted; wanted a refusal naming " << flag;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(flag + ":", 0), 0u) << e.what();
  }
}

TEST(Presets, ImpossibleNumbersNameTheirFlag) {
  expect_flag_refused(request("ddpp", {}), "--preset");
  expect_flag_refused(request("ddp", {{"--dp", "8"}}), "--params");
  expect_flag_refused(request("ddp", {{"--params", "0"}, {"--dp", "8"}}), "--params");
  expect_flag_refused(request("ddp", {{"--params", "1B"}, {"--dp", "1"}}), "--dp");
  expect_flag_refused(request("ddp", {{"--params", "1B"}, {"--dp", "8"}, {"--hidden", "8"}}), "--hidden");
  expect_flag_refused(request("ddp", {{"--params", "1B"}, {"--dp", "8"}}, true), "--sequence-parallel");
  expect_flag_refused(request("ddp", {{"--params", "1B"}, {"--dp", "8"}, {"--bucket", "0"}}), "--bucket");
  expect_flag_refused(request("ddp", {{"--params", "1B"}, {"--dp", "8"}, {"--dtype", "int32"}}), "--dtype");
  expect_flag_refused(request("ddp", {{"--params", "1000001"}, {"--dp", "4"}, {"--tp", "2"}}), "--tp");
  expect_flag_refused(request("zero2", {{"--params", "1B"}, {"--dp", "8"}, {"--bucket", "5"}}), "--bucket");
  expect_flag_refused(request("fsdp", {{"--params", "1.3B"}, {"--layers", "24"}, {"--dp", "8"}}), "--layers");
  expect_flag_refused(request("zero3", {{"--params", "8B"}, {"--dp", "8"}}), "--layers");
  expect_flag_refused(request("fsdp", {{"--params", "1T"}, {"--layers", "1"}, {"--dp", "8"}}), "--params");
  expect_flag_refused(
      request("ddp", {{"--params", "1000T"}, {"--dtype", "fp64"}, {"--bucket", "0.000001"}, {"--dp", "2"}}),
      "--bucket");
  expect_flag_refused(request("ddp", {{"--params", "1B"}, {"--tp", "65536"}, {"--dp", "65536"}}), "--dp");
  const std::map<std::string, std::string> tp{
      {"--layers", "2"}, {"--hidden", "64"}, {"--seq", "30"}, {"--micro-batch", "1"}, {"--tp", "8"}};
  expect_flag_refused(request("megatron-tp", tp, true), "--seq");
  auto one = tp;
  one["--tp"] = "1";
  expect_flag_refused(request("megatron-tp", one), "--tp");
  auto huge = tp;
  huge["--hidden"] = "10000000";
  huge["--seq"] = "100000000";
  expect_flag_refused(request("megatron-tp", huge), "--hidden");
}

TEST(Presets, GoldenJson) {
  testing::expect_golden("workload/ddp-1.3b-fp32-dp8.json",
                         to_json(make_preset_workload(request(
                                     "ddp", {{"--params", "1.3B"}, {"--dtype", "fp32"}, {"--dp", "8"}})))
                                 .dump(2) +
                             "\n");
  testing::expect_golden("workload/megatron-tp-sp.json",
                         to_json(make_preset_workload(request("megatron-tp",
                                                              {{"--layers", "32"},
                                                               {"--hidden", "4096"},
                                                               {"--seq", "4096"},
                                                               {"--micro-batch", "1"},
                                                               {"--tp", "8"},
                                                               {"--dp", "2"}},
                                                              true)))
                                 .dump(2) +
                             "\n");
}

}  // namespace
}  // namespace commtune
