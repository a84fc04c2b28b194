// The doctor's JSON is one type: what `commtune doctor --json` writes (to_json of DoctorReport) is
// what `commtune report` reads back (doctor_report_from_json), and writing what was read gives the
// same text. The reader refuses what the writer never writes.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "doctor/doctor_report.hpp"
#include "pairwise/pair_matrix.hpp"

namespace commtune {
namespace {

// n members named `prefix` 0..n-1, every entry's samples different, so that medians and spreads differ.
PairMatrix measured(int n, const std::string& prefix, const std::string& unit, std::size_t bytes) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i));
  PairMatrix m = empty_matrix(names, unit, bytes);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j)
        m.entries[i][j] = PairEntry{{10.1 + i, 12.3 + j, 11.7 + i + j, 9.9}, {3.1 + i, 3.5, 4.2 + j / 3.0}};
  return m;
}

DoctorReport every_part() {
  const Ceiling nic{.gbps = 48.5,
                    .path = "1 x 400 Gb/s NIC per node",
                    .basis = "sysfs",
                    .expected_low = 0.9,
                    .expected_high = 0.96,
                    .expected_source = "nccl-tests"};
  const Ceiling nvlink{.gbps = 450, .path = "NVLink 4 x18", .basis = "GPU facts"};
  return DoctorReport{
      .backend = BackendKind::Nccl,
      .findings = {Finding{"slow-node", Severity::Critical, "n2", "every pair with n2 is slow", "check n2"},
                   Finding{"efficiency", Severity::Info, "allreduce", "busbw 3.1 GB/s", "-"}},
      .ceiling = nic,
      .pairwise = pair_map_of(measured(3, "n", "node", 1u << 20)),
      .pairwise_failure = "rank 2 stopped in round 1: timed out",
      .node_gpus = NodeGpuMaps{
          .maps = {NodeGpuMap{.host = "n0", .map = pair_map_of(measured(4, "rank ", "rank", 256u << 10))},
                   NodeGpuMap{.host = "n1", .map = pair_map_of(measured(2, "rank ", "rank", 256u << 10))}},
          .ceiling = nvlink,
          .failure = "rank 5 died"}};
}

TEST(DoctorReportJson, WhatIsWrittenReadsBackAndWritesTheSameText) {
  const DoctorReport report = every_part();
  const nlohmann::json written = to_json(report);
  ASSERT_TRUE(is_doctor_json(written));
  const DoctorReport read = doctor_report_from_json(nlohmann::json::parse(written.dump(2)), "doctor.json");
  EXPECT_EQ(to_json(read).dump(2), written.dump(2));
  EXPECT_EQ(read.backend, BackendKind::Nccl);
  EXPECT_FALSE(read.healthy());
  EXPECT_EQ(written["healthy"], false);
  ASSERT_EQ(read.findings.size(), 2u);
  EXPECT_EQ(read.findings[0].severity, Severity::Critical);
  ASSERT_TRUE(read.pairwise && read.node_gpus);
  EXPECT_EQ(read.pairwise->members, (std::vector<std::string>{"n0", "n1", "n2"}));
  EXPECT_FALSE(read.pairwise->gbps[1][1].has_value());  // the diagonal
  EXPECT_EQ(read.node_gpus->maps.size(), 2u);
  EXPECT_EQ(read.node_gpus->failure, "rank 5 died");
}

TEST(DoctorReportJson, AHealthyReportWithoutMapsReadsBackToo) {
  const DoctorReport report{
      .backend = BackendKind::Mpi,
      .findings = {Finding{"one-rank", Severity::Info, "the map", "one rank", "run more"}}};
  const nlohmann::json written = to_json(report);
  EXPECT_EQ(written["healthy"], true);
  const DoctorReport read = doctor_report_from_json(written, "doctor.json");
  EXPECT_TRUE(read.healthy());
  EXPECT_FALSE(read.pairwise || read.node_gpus || read.ceiling || read.pairwise_failure);
  EXPECT_EQ(to_json(read), written);
}

// What the writer never writes is refused, naming the file and the JSON path.
TEST(DoctorReportJson, TheReaderRefusesWhatTheWriterNeverWrites) {
  const nlohmann::json good = to_json(every_part());
  const auto message = [](const nlohmann::json& j) {
    try {
      doctor_report_from_json(j, "d.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  nlohmann::json j = good;
  j["healthy"] = true;  // a critical finding says otherwise
  EXPECT_NE(message(j).find("d.json: healthy"), std::string::npos) << message(j);
  j = good;
  j["pairwise"]["gbps"][1][1] = 4.0;
  EXPECT_NE(message(j).find("d.json: pairwise.gbps[1][1]"), std::string::npos) << message(j);
  j = good;
  j["node_gpus"]["maps"][0]["pairwise"]["spread"][0][1] = -0.5;
  EXPECT_NE(message(j).find("node_gpus.maps[0].pairwise.spread[0][1]"), std::string::npos) << message(j);
  j = good;
  j["backend"] = "gloo";
  EXPECT_NE(message(j).find("d.json: backend"), std::string::npos) << message(j);
}

}  // namespace
}  // namespace commtune
