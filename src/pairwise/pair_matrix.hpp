#pragma once
// The pairwise map: point-to-point bandwidth and latency from each member (a node, or a rank on
// one node) to each other, with every entry's samples kept so that findings can weigh the noise.
// Entry [i][j] is what i measured while exchanging with j (both directions at once).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace commtune {

struct PairEntry {
  std::vector<double> gbps;        // bandwidth samples, GB/s per direction
  std::vector<double> latency_us;  // small-message exchange time samples
  double median_gbps() const;
  double median_latency_us() const;
  double spread() const;  // (p95 - p5) / median of the bandwidth samples; 0 with < 2
};

struct PairMatrix {
  std::vector<std::string> names;               // per member: host name (one rank per node) or "rank N"
  std::string unit_of_member;                   // "node" or "rank"
  std::size_t message_bytes = 0;                // bandwidth message size
  std::vector<std::vector<PairEntry>> entries;  // [i][j]; the diagonal is empty

  int size() const { return static_cast<int>(names.size()); }
};

PairMatrix empty_matrix(std::vector<std::string> names, std::string unit, std::size_t bytes);

void write_matrix(const PairMatrix& m, std::ostream& out);  // two tables: GB/s, then us
nlohmann::json to_json(const PairMatrix& m);

}  // namespace commtune
