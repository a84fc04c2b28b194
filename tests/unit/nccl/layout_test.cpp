// Issue-8 fixes that need no GPU: a lone CTA bound, case-sensitive path levels, per-task GPU
// binding and shared-GPU refusal, and settings that cannot apply on the run's layout.
#include <gtest/gtest.h>

#include "backend/nccl/supervisor/device_setup.hpp"
#include "backend/nccl/supervisor/layout_skips.hpp"
#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "core/errors.hpp"
#include "host/environment_tuner_plugin.hpp"
#include "knobs/nccl_knobs.hpp"

#include <set>

namespace commtune {
namespace {

const std::vector<Collective> kLayoutCollectives{Collective::AllReduce, Collective::AllGather,
                                                 Collective::Broadcast, Collective::ReduceScatter};

Setting knobbed(std::map<std::string, std::string> knobs) { return Setting{"s", "", std::move(knobs), {}}; }

TEST(CtaBounds, ALoneBoundGetsItsPartner) {
  const CommConfig min_only = comm_config_of(knobbed({{"NCCL_MIN_CTAS", "8"}}));
  EXPECT_EQ(min_only.min_ctas, 8);
  EXPECT_EQ(min_only.max_ctas, kNcclMaxChannels);
  const CommConfig max_only = comm_config_of(knobbed({{"NCCL_MAX_CTAS", "4"}}));
  EXPECT_EQ(max_only.min_ctas, 1);
  EXPECT_EQ(max_only.max_ctas, 4);
  const CommConfig both = comm_config_of(knobbed({{"NCCL_MIN_CTAS", "2"}, {"NCCL_MAX_CTAS", "16"}}));
  EXPECT_EQ(both.min_ctas, 2);
  EXPECT_EQ(both.max_ctas, 16);
  EXPECT_FALSE(comm_config_of(knobbed({})).min_ctas.has_value());
}

TEST(PathLevels, AreCaseSensitiveAsInNccl) {
  for (const char* level : {"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "0", "5"})
    EXPECT_NO_THROW(validate_nccl_setting(knobbed({{"NCCL_P2P_LEVEL", level}}), kLayoutCollectives)) << level;
  for (const char* level : {"nvl", "Sys", "pxb", "6", "NET"})
    EXPECT_THROW(validate_nccl_setting(knobbed({{"NCCL_P2P_LEVEL", level}}), kLayoutCollectives), InputError)
        << level;
  EXPECT_THROW(validate_nccl_setting(knobbed({{"NCCL_NET_GDR_LEVEL", "phb"}}), kLayoutCollectives),
               InputError);
}

TEST(GpuBinding, OneVisibleGpuPerTaskMapsEveryLocalRankToIt) {
  EXPECT_EQ(devices_for(1, 1, 1), std::vector<int>{0});
  EXPECT_EQ(devices_for(3, 1, 1), std::vector<int>{0});
  EXPECT_EQ(devices_for(5, 1, 8), std::vector<int>{5});
  EXPECT_EQ(devices_for(0, 3, 2), (std::vector<int>{0, 1, 0}));
  EXPECT_THROW(devices_for(0, 1, 0), UnavailableError);
}

TEST(GpuBinding, OnlyTheSameGpuOfTheSameHostIsShared) {
  // srun --gpus-per-task=1: every task sees "its" GPU as device 0, on distinct PCI buses.
  const PlacementFacts per_task = placement_facts({{0, "n1", "0000:18:00.0"},
                                                   {1, "n1", "0000:2a:00.0"},
                                                   {2, "n2", "0000:18:00.0"},
                                                   {3, "n2", "0000:2a:00.0"}},
                                                  false);
  EXPECT_FALSE(per_task.refusal.has_value());
  EXPECT_EQ(per_task.ranks_per_device, 1);
  EXPECT_EQ(per_task.nnodes, 2);
  const PlacementFacts shared =
      placement_facts({{0, "n1", "0000:18:00.0"}, {1, "n1", "0000:18:00.0"}}, false);
  ASSERT_TRUE(shared.refusal.has_value());
  EXPECT_NE(shared.refusal->find("ranks 0 and 1"), std::string::npos) << *shared.refusal;
  EXPECT_NE(shared.refusal->find("--emulate-nodes"), std::string::npos);
  const PlacementFacts emulated = placement_facts({{0, "n1", "b"}, {1, "n1", "b"}, {2, "n1", "b"}}, true);
  EXPECT_FALSE(emulated.refusal.has_value());
  EXPECT_EQ(emulated.ranks_per_device, 3);
  EXPECT_EQ(emulated.nnodes, 3);
}

TEST(LayoutConflict, NvlsIsOffAcrossNodesAndPatWithSeveralGpusPerNode) {
  const Setting nvls = knobbed({{"NCCL_ALGO", "NVLS"}});
  EXPECT_FALSE(layout_conflict(nvls, Collective::AllReduce, {8, 1}).has_value());
  const auto across = layout_conflict(nvls, Collective::AllReduce, {16, 2});
  ASSERT_TRUE(across.has_value());
  EXPECT_NE(across->find("NVLS is off across nodes"), std::string::npos) << *across;
  EXPECT_FALSE(layout_conflict(knobbed({{"NCCL_ALGO", "NVLS"}, {"NCCL_COLLNET_ENABLE", "1"}}),
                               Collective::AllReduce, {16, 2}));

  const Setting pat = knobbed({{"NCCL_ALGO", "PAT"}});
  EXPECT_FALSE(layout_conflict(pat, Collective::AllGather, {4, 4}).has_value());
  EXPECT_TRUE(layout_conflict(pat, Collective::AllGather, {8, 1}).has_value());
  EXPECT_FALSE(layout_conflict(knobbed({{"NCCL_ALGO", "PAT"}, {"NCCL_PAT_ENABLE", "1"}}),
                               Collective::AllGather, {8, 1}));

  EXPECT_TRUE(
      layout_conflict(knobbed({{"NCCL_ALGO", "NVLSTree"}}), Collective::AllReduce, {8, 1}).has_value());
  EXPECT_FALSE(
      layout_conflict(knobbed({{"NCCL_ALGO", "NVLS,Ring"}}), Collective::AllReduce, {16, 2}).has_value());
  EXPECT_FALSE(layout_conflict(knobbed({}), Collective::AllReduce, {16, 2}).has_value());
}

TEST(LayoutSkips, ASettingThatAppliesNowhereStartsNoWorkers) {
  SweepOptions options;
  options.collectives = {Collective::AllReduce, Collective::AllGather};
  const Setting nvls = knobbed({{"NCCL_ALGO", "allreduce:NVLS;allgather:NVLS"}});
  const LayoutSkips skips = layout_skips(nvls, options, {4, 4});
  EXPECT_EQ(skips.size(), 2u);
  EXPECT_TRUE(skips_everything(skips, nvls, options));
  auto session = skipping(nullptr, skips, 4);
  Case c;
  c.collective = Collective::AllGather;
  const CaseResult r = session->run_case(c, nvls, options);
  EXPECT_EQ(r.status, CaseStatus::Skipped);
  EXPECT_NE(r.reason.find("not applicable here"), std::string::npos) << r.reason;
  const Setting mixed = knobbed({{"NCCL_ALGO", "allreduce:NVLS;allgather:Ring"}});
  EXPECT_FALSE(skips_everything(layout_skips(mixed, options, {4, 4}), mixed, options));
}

}  // namespace
}  // namespace commtune

namespace commtune {
namespace {

// NVLS reduces only some types and ops (NCCL 2.28.9 src/device.h), needs NVSwitch multicast and is
// switched off by NCCL_NVLS_ENABLE=0; CollNet needs a plugin: a forced setting is skipped there,
// with the reason, instead of failing every case at NCCL's launch.
TEST(LayoutConflict, NvlsTypesOpsSwitchAndHardware) {
  const Setting nvls = knobbed({{"NCCL_ALGO", "NVLS"}});
  const NcclLayout node{.nranks = 8, .nnodes = 1};
  EXPECT_FALSE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::Float32, ReduceOp::Sum}));
  EXPECT_FALSE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::BFloat16, ReduceOp::Max}));
  EXPECT_TRUE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::Int8, ReduceOp::Sum}));
  EXPECT_TRUE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::Uint8, ReduceOp::Sum}));
  EXPECT_TRUE(layout_conflict(nvls, Collective::ReduceScatter, node, {DataType::Float32, ReduceOp::Prod}));
  EXPECT_TRUE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::Float32, ReduceOp::Max}));
  EXPECT_TRUE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::Float64, ReduceOp::Min}));
  EXPECT_FALSE(layout_conflict(nvls, Collective::AllReduce, node, {DataType::Int32, ReduceOp::Min}));
  EXPECT_FALSE(
      layout_conflict(nvls, Collective::AllGather, node, {DataType::Int8, ReduceOp::Sum}));  // no reduction
  EXPECT_FALSE(layout_conflict(knobbed({{"NCCL_ALGO", "NVLS,Ring"}}), Collective::AllReduce, node,
                               {DataType::Int8, ReduceOp::Sum}));

  EXPECT_TRUE(layout_conflict(knobbed({{"NCCL_ALGO", "NVLS"}, {"NCCL_NVLS_ENABLE", "0"}}),
                              Collective::AllReduce, node));
  EXPECT_TRUE(layout_conflict(nvls, Collective::AllReduce,
                              NcclLayout{.nranks = 8, .nnodes = 1, .nvls_enabled = false}));
  EXPECT_TRUE(layout_conflict(nvls, Collective::AllGather,
                              NcclLayout{.nranks = 8, .nnodes = 1, .nvls_hardware = false}));
  EXPECT_TRUE(layout_conflict(knobbed({{"NCCL_ALGO", "NVLSTree"}}), Collective::AllReduce,
                              NcclLayout{.nranks = 16, .nnodes = 2, .nvls_hardware = false}));
  EXPECT_FALSE(layout_conflict(knobbed({{"NCCL_ALGO", "NVLSTree"}}), Collective::AllReduce,
                               NcclLayout{.nranks = 16, .nnodes = 2}));
}

TEST(LayoutConflict, CollNetNeedsAPlugin) {
  const Setting collnet = knobbed({{"NCCL_ALGO", "CollNetDirect"}, {"NCCL_COLLNET_ENABLE", "1"}});
  EXPECT_FALSE(layout_conflict(collnet, Collective::AllReduce, NcclLayout{.nranks = 16, .nnodes = 2}));
  EXPECT_TRUE(layout_conflict(collnet, Collective::AllReduce,
                              NcclLayout{.nranks = 16, .nnodes = 2, .collnet_plugin = false}));
}

nlohmann::json host(const std::string& name, std::vector<std::pair<std::string, bool>> gpus) {
  nlohmann::json workers = nlohmann::json::array();
  for (std::size_t i = 0; i < gpus.size(); ++i)
    workers.push_back({{"rank", i}, {"pci_bus_id", gpus[i].first}, {"multicast", gpus[i].second}});
  return {{"host", name}, {"workers", workers}};
}

TEST(NvlsHardware, EveryNodeTwoMulticastGpus) {
  const nlohmann::json two = nlohmann::json::array(
      {host("a", {{"0:18", true}, {"0:2a", true}}), host("b", {{"0:18", true}, {"0:2a", true}})});
  EXPECT_TRUE(nvls_hardware(two, false));
  EXPECT_FALSE(nvls_hardware(two, true));  // emulated nodes: one rank per node
  EXPECT_FALSE(nvls_hardware(nlohmann::json::array({host("a", {{"0:18", true}, {"0:2a", false}})}), false));
  EXPECT_FALSE(nvls_hardware(nlohmann::json::array({host("a", {{"0:18", true}, {"0:18", true}})}),
                             false));  // one GPU shared
  EXPECT_FALSE(nvls_hardware(
      nlohmann::json::array({host("a", {{"0:18", true}, {"0:2a", true}}), host("b", {{"0:18", true}})}),
      false));
}

TEST(EnvironmentCollnetPlugin, TheNetPluginNcclLoadsMustExportIt) {
  std::set<std::string> present{"libnccl-net.so", "libnccl-net-sharp.so"};
  std::set<std::string> collnet{"libnccl-net-sharp.so"};
  const LibraryProbe probe{[&](const std::string& n) { return present.count(n) > 0; },
                           [](const std::string&) { return false; },
                           [&](const std::string& n) { return collnet.count(n) > 0; }};
  EXPECT_FALSE(environment_collnet_plugin({}, probe));  // libnccl-net.so loads, exports no CollNet
  EXPECT_TRUE(environment_collnet_plugin({"NCCL_NET_PLUGIN=sharp"}, probe));
  EXPECT_FALSE(environment_collnet_plugin({"NCCL_NET_PLUGIN=none"}, probe));
  collnet.insert("libnccl-net.so");
  EXPECT_TRUE(environment_collnet_plugin({}, probe));
  present.clear();
  EXPECT_FALSE(environment_collnet_plugin({}, probe));
}

}  // namespace
}  // namespace commtune
