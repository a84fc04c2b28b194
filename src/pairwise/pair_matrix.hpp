#pragma once
// The pairwise map: point-to-point bandwidth and latency from each member (a node, or a rank on
// one node) to each other. PairMatrix is the map as measured, with every entry's samples kept so that
// findings can weigh the noise; PairMap is the map as `doctor --json` writes it and `commtune report`
// reads it back: each entry's medians and spread. Entry [i][j] is what i measured while exchanging
// with j (both directions at once); the diagonal is empty (null in the JSON).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
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

// The median GB/s of both directions between members a and b (a's entry to b, b's to a); nullopt
// where either measured nothing.
std::optional<std::pair<double, double>> link_medians(const PairMatrix& m, int a, int b);

void write_matrix(const PairMatrix& m, std::ostream& out);  // two tables: GB/s, then us

inline constexpr std::size_t kMaxMapMembers = 4096;  // the most members a map read back may have

// The map's JSON: {"members", "member", "message_bytes", "gbps", "latency_us", "spread"}, each
// matrix [from][to] with null on the diagonal (a pair that measured nothing may be null too).
struct PairMap {
  using Values = std::vector<std::vector<std::optional<double>>>;
  std::vector<std::string> members;
  std::string member_kind;  // "node" or "rank"
  std::uint64_t message_bytes = 0;
  Values gbps;        // median GB/s per direction
  Values latency_us;  // median small-message exchange time
  Values spread;      // (p95 - p5) / median of the bandwidth samples
};

PairMap pair_map_of(const PairMatrix& m);  // the medians and spreads of the samples

nlohmann::json to_json(const PairMap& map);
// Validated like every input (InputError naming `where` and the JSON path): 1 to kMaxMapMembers
// names, a square map of each value, non-negative numbers off the diagonal, null on it.
PairMap pair_map_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
