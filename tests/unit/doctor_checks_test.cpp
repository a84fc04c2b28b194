// The doctor's system checks on recorded trees (tests/fixtures/systems, written by
// make_systems.py in sysfs/procfs formats): every broken thing found, nothing on healthy machines.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

SystemTree fixture(const std::string& name) {
  return SystemTree(std::string(COMMTUNE_SOURCE_DIR) + "/tests/fixtures/systems/" + name);
}

// What a healthy live machine would report besides its tree.
SystemFacts healthy_facts(const SystemTree& tree) {
  SystemFacts facts;
  facts.compute_modes = tree.content("nvidia-smi-compute-mode.csv");
  facts.environment = {{"NCCL_DEBUG", "INFO"}, {"OMPI_COMM_WORLD_SIZE", "8"}};
  facts.local_ranks = 8;
  facts.cores = 112;
  return facts;
}

std::string describe(const std::vector<Finding>& findings) {
  std::string text;
  for (const auto& f : findings)
    text += "\n  " + f.id + " [" + std::string(name_of(f.severity)) + "] " + f.subject + ": " + f.evidence;
  return text;
}

int count(const std::vector<Finding>& findings, const std::string& id, const std::string& subject_part = "") {
  return static_cast<int>(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) {
    return f.id == id && f.subject.find(subject_part) != std::string::npos;
  }));
}

TEST(DoctorChecks, HealthyNvlinkServerHasNoFindings) {
  const SystemTree tree = fixture("nvlink-8gpu");
  const auto findings = run_system_checks(tree, healthy_facts(tree));
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

TEST(DoctorChecks, HealthyPcieServerHasNothingThatNeedsAttention) {
  const SystemTree tree = fixture("pcie-4gpu");
  const auto findings = run_system_checks(tree, healthy_facts(tree));
  EXPECT_FALSE(needs_attention(findings)) << describe(findings);
  // Its unused second port is worth a line, not a warning.
  EXPECT_EQ(count(findings, "net-port-down", "enp97s0f1np1"), 1) << describe(findings);
  EXPECT_EQ(findings.size(), 1u) << describe(findings);
}

TEST(DoctorChecks, TheTreesAreReadAsRecorded) {
  const auto devices = read_pci_devices(fixture("nvlink-8gpu"));
  EXPECT_EQ(std::count_if(devices.begin(), devices.end(), is_gpu), 8);
  EXPECT_EQ(std::count_if(devices.begin(), devices.end(), is_nvswitch), 4);
  const PciDevice* gpu = find_device(devices, "0000:12:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(pcie_generation(gpu->max.speed_gts), 5);
  EXPECT_EQ(gpu->max.width, 16);
  const auto bridges = upstream_bridges(devices, *gpu);
  ASSERT_EQ(bridges.size(), 3u);  // switch downstream port, switch upstream port, root port
  EXPECT_EQ(bridges.front()->bdf, "0000:11:00.0");
  EXPECT_EQ(bridges.back()->bdf, "0000:00:01.0");
  const auto ports = read_rdma_ports(fixture("nvlink-8gpu"));
  ASSERT_EQ(ports.size(), 8u);
  EXPECT_DOUBLE_EQ(ports.front().rate_gbps, 400);
  EXPECT_EQ(ports.front().pci_bdf, "0000:13:00.0");
}

class BrokenServer : public ::testing::Test {
 protected:
  void SetUp() override {
    SystemFacts facts = healthy_facts(tree);
    facts.memlock_bytes = 64 << 10;
    facts.environment = {{"NCCL_P2P_DISABLE", "1"}, {"NCCL_NET", "Socket"}};
    facts.local_ranks = 8;
    facts.cores = 4;
    facts.mpi_yield_when_idle = false;
    findings = run_system_checks(tree, facts);
  }
  SystemTree tree = fixture("broken-8gpu");
  std::vector<Finding> findings;
};

TEST_F(BrokenServer, DowntrainedLinksAreFound) {
  EXPECT_EQ(count(findings, "pcie-link-slow", "GPU 0000:42:00.0"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "pcie-link-narrow", "NIC 0000:33:00.0"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "pcie-link-slow") + count(findings, "pcie-link-narrow"), 2) << describe(findings);
}

TEST_F(BrokenServer, AcsOnTheSwitchPortAboveOneGpuIsFoundAndRootPortsAreLeftAlone) {
  EXPECT_EQ(count(findings, "pcie-acs-enabled"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "pcie-acs-enabled", "bridge 0000:a1:00.0"), 1) << describe(findings);
}

TEST_F(BrokenServer, IommuTranslationIsFound) {
  EXPECT_EQ(count(findings, "iommu-translation"), 1) << describe(findings);
}

TEST_F(BrokenServer, MissingGpudirectRdmaIsFound) {
  EXPECT_EQ(count(findings, "gpudirect-rdma-missing"), 1) << describe(findings);
}

TEST_F(BrokenServer, PortsDownOrSlowAreFound) {
  EXPECT_EQ(count(findings, "nic-port-down", "mlx5_5 port 1"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "nic-port-slow", "mlx5_6 port 1"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "net-port-slow", "eno2"), 1) << describe(findings);
}

TEST_F(BrokenServer, GpusWithoutANearbyNicAreFound) {
  EXPECT_EQ(count(findings, "numa-no-local-nic", "NUMA node 1"), 1) << describe(findings);
}

TEST_F(BrokenServer, ContainerLimitsAreFound) {
  EXPECT_EQ(count(findings, "shm-small"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "memlock-limited"), 1) << describe(findings);
}

TEST_F(BrokenServer, ExclusiveProcessComputeModeIsFound) {
  EXPECT_EQ(count(findings, "gpu-compute-mode", "00000000:22:00.0"), 1) << describe(findings);
}

TEST_F(BrokenServer, EnvironmentThatSwitchesFastPathsOffIsFound) {
  EXPECT_EQ(count(findings, "nccl-env-disables-path", "NCCL_P2P_DISABLE"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "nccl-env-disables-path", "NCCL_NET"), 1) << describe(findings);
  EXPECT_EQ(count(findings, "mpi-oversubscribed-no-yield"), 1) << describe(findings);
}

TEST_F(BrokenServer, RankingPutsCriticalFirst) {
  auto ranked = findings;
  rank_findings(ranked);
  ASSERT_FALSE(ranked.empty());
  EXPECT_EQ(ranked.front().severity, Severity::Critical);
  EXPECT_TRUE(std::is_sorted(ranked.begin(), ranked.end(),
                             [](const Finding& a, const Finding& b) { return a.severity > b.severity; }));
  EXPECT_TRUE(needs_attention(ranked));
}

TEST(DoctorChecks, AcsControlIsReadFromTheExtendedCapabilityChain) {
  std::string config(4096, '\0');
  const auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
      config[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put32(0x100, 0x0001u | (0x180u << 20));  // AER, next at 0x180
  put32(0x180, 0x000du);                   // ACS, last
  put32(0x184, 0x0004u << 16);             // control: ReqRedir
  EXPECT_EQ(acs_control(config), std::uint16_t{0x0004});
  EXPECT_EQ(acs_control(config.substr(0, 256)), std::nullopt);  // what an unprivileged reader sees
  put32(0x100, 0x0001u);                                        // AER, last: no ACS at all
  EXPECT_EQ(acs_control(config), std::uint16_t{0});
  put32(0x100, 0x0001u | (0x100u << 20));  // a loop: ends, says nothing redirected
  EXPECT_EQ(acs_control(config), std::uint16_t{0});
}

TEST(DoctorChecks, YieldOrEnoughCoresSilenceTheOversubscriptionFinding) {
  SystemFacts facts;
  facts.local_ranks = 8;
  facts.cores = 2;
  facts.environment = {{"OMPI_MCA_mpi_yield_when_idle", "1"}};
  EXPECT_EQ(count(check_environment(facts, {}), "mpi-oversubscribed-no-yield"), 0);
  facts.environment.clear();
  EXPECT_EQ(count(check_environment(facts, {}), "mpi-oversubscribed-no-yield"), 1);
  facts.cores = 8;
  EXPECT_EQ(count(check_environment(facts, {}), "mpi-oversubscribed-no-yield"), 0);
  // NCCL_IB_DISABLE without any RDMA port is only information.
  facts.environment = {{"NCCL_IB_DISABLE", "1"}};
  const auto f = check_environment(facts, {});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f.front().severity, Severity::Info);
}

}  // namespace
}  // namespace commtune
