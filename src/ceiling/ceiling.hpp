#pragma once
// The physical ceiling of the path a sweep's cases run on, and the efficiency of a measured
// busbw against it: "is my number good?". A Ceiling says what it is (the path), how it was
// obtained (from link facts, or measured), and what fraction of it published runs reach, with
// the source of that range.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace commtune {

struct Ceiling {
  double gbps = 0;          // per direction, GB/s (10^9 bytes/s)
  std::string path;         // "NVLink 4 x18", "PCIe Gen5 x16", "8 x 400 Gb/s NIC per node", "host memory"
  std::string basis;        // how it was obtained: the facts, or the measurement and its method
  double expected_low = 0;  // fraction of gbps that published runs reach; 0: no published range
  double expected_high = 0;
  std::string expected_source;  // where the range comes from
};

// busbw / ceiling; 0 when there is no ceiling.
double efficiency(double busbw_gbps, const Ceiling& ceiling);

// One line: "busbw 370.0 GB/s is 82.2% of the NVLink 4 x18 ceiling of 450.0 GB/s (...); expected
// about 78-84% (...): within the expected range".
std::string efficiency_verdict(double busbw_gbps, const Ceiling& ceiling);

nlohmann::json to_json(const Ceiling& c);
// Validates like every results reader: InputError naming `where` and the field.
Ceiling ceiling_from_json(const nlohmann::json& j, const std::string& where);

// The ceiling a run's provenance carries ("ceiling", docs/results-schema.md), for the writers'
// efficiency column and verdict and the report's plots; nothing when the run has none.
std::optional<Ceiling> ceiling_from_provenance(const nlohmann::json& provenance);

}  // namespace commtune
