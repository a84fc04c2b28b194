// Ceilings of each path from synthetic facts, the efficiency verdict, and the ceiling's reader.
#include <gtest/gtest.h>

#include "ceiling/path_facts.hpp"
#include "core/errors.hpp"

namespace commtune {
namespace {

TEST(Ceiling, NvlinkIsLinksTimesTheGenerationsRate) {
  PathFacts f;
  f.backend = BackendKind::Nccl;
  f.gpu_name = "NVIDIA H200";
  f.nvlinks = 18;
  const auto c = ceiling_from_facts(f);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gbps, 450);
  EXPECT_EQ(c->path, "NVLink 4 x18");
  EXPECT_GT(c->expected_high, c->expected_low);
  f.gpu_name = "NVIDIA A100-SXM4-80GB";
  f.nvlinks = 12;
  EXPECT_DOUBLE_EQ(ceiling_from_facts(f)->gbps, 300);
}

TEST(Ceiling, PcieIsGenerationTimesWidthWithoutNvlink) {
  PathFacts f;
  f.backend = BackendKind::Nccl;
  f.gpu_name = "NVIDIA L40S";
  f.pcie_generation = 4;
  f.pcie_width = 16;
  const auto c = ceiling_from_facts(f);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->gbps, 31.5, 0.01);
  EXPECT_EQ(c->path, "PCIe Gen4 x16");
  f.pcie_generation = 5;
  EXPECT_NEAR(ceiling_from_facts(f)->gbps, 63.0, 0.01);
}

TEST(Ceiling, SeveralNodesAreLimitedByTheNicsOfANode) {
  PathFacts f;
  f.backend = BackendKind::Nccl;
  f.nodes = 2;
  f.gpu_name = "NVIDIA H100 80GB HBM3";
  f.nvlinks = 18;
  f.nic_gbits = std::vector<double>(8, 400);
  const auto c = ceiling_from_facts(f);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gbps, 400);  // 8 x 50 GB/s
  EXPECT_EQ(c->path, "8 x 400 Gb/s NIC per node");
  f.backend = BackendKind::Mpi;  // Open MPI over TCP: the fastest port
  EXPECT_DOUBLE_EQ(ceiling_from_facts(f)->gbps, 50);
  f.nic_gbits.clear();
  EXPECT_FALSE(ceiling_from_facts(f));
}

TEST(Ceiling, TheHostBackendOnOneNodeUsesTheMeasuredCopy) {
  PathFacts f;
  f.backend = BackendKind::Mpi;
  EXPECT_FALSE(ceiling_from_facts(f));  // nothing measured: no ceiling, never a guess
  f.host_copy = HostCopyBandwidth{12.5, "memcpy of 64 MiB"};
  const auto c = ceiling_from_facts(f);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gbps, 12.5);
  EXPECT_NE(c->basis.find("measured: memcpy of 64 MiB"), std::string::npos);
  EXPECT_EQ(c->expected_high, 0);
}

TEST(Ceiling, NvlinkCountIsReadFromTheTopologyMatrix) {
  const std::string matrix =
      "\tGPU0\tGPU1\tNIC0\tCPU Affinity\nGPU0\t X \tNV18\tPXB\t0-55\nGPU1\tNV18\t X "
      "\tSYS\t0-55\nNIC0\tPXB\tSYS\t X\n";
  EXPECT_EQ(nvlinks_from_topology(matrix), 18);
  EXPECT_EQ(nvlinks_from_topology("GPU0\t X \tPIX\nGPU1\tPIX\t X\n"), 0);
}

TEST(Ceiling, TheVerdictNamesTheRangeAndItsSource) {
  const Ceiling c{450, "NVLink 4 x18", "18 links", 0.78, 0.85, "nccl-tests #212"};
  EXPECT_NEAR(efficiency(369, c), 0.82, 1e-9);
  const std::string good = efficiency_verdict(369, c);
  EXPECT_NE(good.find("82.0%"), std::string::npos) << good;
  EXPECT_NE(good.find("78-85%"), std::string::npos) << good;
  EXPECT_NE(good.find("nccl-tests #212"), std::string::npos) << good;
  EXPECT_NE(good.find("as expected"), std::string::npos) << good;
  EXPECT_NE(efficiency_verdict(100, c).find("well below"), std::string::npos);
  EXPECT_NE(efficiency_verdict(480, c).find("above the line rate"), std::string::npos);
}

TEST(Ceiling, RoundTripAndValidation) {
  const Ceiling c{50, "1 x 400 Gb/s NIC per node", "sysfs rate", 0.96, 0.98, "nccl-tests #267"};
  const Ceiling back = ceiling_from_json(to_json(c), "c");
  EXPECT_DOUBLE_EQ(back.gbps, 50);
  EXPECT_EQ(back.expected_source, "nccl-tests #267");
  EXPECT_THROW(ceiling_from_json({{"gbps", -1}, {"path", "p"}, {"basis", "b"}}, "c"), InputError);
  EXPECT_THROW(ceiling_from_json({{"gbps", 1}, {"basis", "b"}}, "c"), InputError);
  EXPECT_THROW(ceiling_from_json(nlohmann::json::array(), "c"), InputError);
}

TEST(LinkRates, PublishedRates) {
  EXPECT_EQ(nvlink_generation("NVIDIA GH200 480GB"), 4);
  EXPECT_EQ(nvlink_generation("NVIDIA B200"), 5);
  EXPECT_FALSE(nvlink_generation("NVIDIA GeForce RTX 4090"));
  EXPECT_NEAR(16 * pcie_lane_gbps(3), 15.76, 0.01);
  EXPECT_DOUBLE_EQ(nic_gbps(200), 25);
}

}  // namespace
}  // namespace commtune
