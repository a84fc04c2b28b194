#include "doctor/measured_findings.hpp"

#include <algorithm>
#include <limits>

#include "core/text_format.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

const PairEntry& at(const PairMatrix& m, int i, int j) {
  return m.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
}
const std::string& name(const PairMatrix& m, int i) { return m.names[static_cast<std::size_t>(i)]; }

// "node n4" for a host; a member already named by its kind ("rank 3") keeps its name.
std::string member_subject(const PairMatrix& m, int i) {
  const std::string& n = name(m, i);
  return n.rfind(m.unit_of_member + " ", 0) == 0 ? n : m.unit_of_member + " " + n;
}

double margin(const PairMatrix& m) { return std::max(kMinMargin, map_noise(m)); }

struct Spread {
  double low = std::numeric_limits<double>::infinity(), high = 0;
  int count = 0;
  void add(double v) { low = std::min(low, v), high = std::max(high, v), ++count; }
};

// The links touching member `i` (both directions) and those that do not touch it; `skip` is a
// member whose links with `i` are left out of `touching` (the pair under test).
void split_links(const PairMatrix& m, int i, int skip, Spread& touching, Spread& others) {
  for (int a = 0; a < m.size(); ++a)
    for (int b = 0; b < m.size(); ++b) {
      if (a == b || at(m, a, b).gbps.empty()) continue;
      const bool touches = a == i || b == i;
      if (touches && (a == skip || b == skip)) continue;
      (touches ? touching : others).add(at(m, a, b).median_gbps());
    }
}

}  // namespace

double map_noise(const PairMatrix& m) {
  std::vector<double> spreads;
  for (int i = 0; i < m.size(); ++i)
    for (int j = 0; j < m.size(); ++j)
      if (i != j && at(m, i, j).gbps.size() >= 2) spreads.push_back(at(m, i, j).spread());
  return spreads.empty() ? 0 : summarize(spreads).median;
}

std::vector<Finding> find_slow_nodes(const PairMatrix& m) {
  if (m.size() < 3) return {};
  const double mg = margin(m);
  std::vector<Finding> out;
  for (int i = 0; i < m.size(); ++i) {
    Spread mine, others;
    split_links(m, i, -1, mine, others);
    if (mine.count == 0 || others.count == 0 || !(mine.high < others.low * (1 - mg))) continue;
    out.push_back(Finding{
        "slow-node", Severity::Critical, member_subject(m, i),
        printf_string(
            "all %d of its link directions run at %.3f-%.3f GB/s, every other link at %.3f GB/s or more "
            "(margin %.0f%%: the map's noise or %.0f%%, whichever is larger)",
            mine.count, mine.low, mine.high, others.low, mg * 100, kMinMargin * 100),
        "check this node's NIC, cable, switch port and link speed (ibstat, ethtool), and what else runs on "
        "it; "
        "take it out of the job until fixed"});
  }
  return out;
}

std::vector<BadPair> bad_pairs(const PairMatrix& m) {
  if (m.size() < 3) return {};
  const double mg = margin(m);
  std::vector<BadPair> out;
  for (int i = 0; i < m.size(); ++i)
    for (int j = i + 1; j < m.size(); ++j) {
      const auto both = link_medians(m, i, j);
      if (!both) continue;
      const double pair = std::max(both->first, both->second);
      Spread rest_i, rest_j, unused;
      split_links(m, i, j, rest_i, unused);
      split_links(m, j, i, rest_j, unused);
      const double rest = std::min(rest_i.low, rest_j.low);
      if (rest_i.count == 0 || rest_j.count == 0 || !(pair < rest * (1 - mg))) continue;
      out.push_back(BadPair{i, j, pair, rest});
    }
  return out;
}

std::vector<std::pair<int, int>> bad_pair_members(const PairMatrix& m) {
  std::vector<std::pair<int, int>> out;
  for (const BadPair& p : bad_pairs(m)) out.emplace_back(p.i, p.j);
  return out;
}

Finding bad_pair_finding(const PairMatrix& m, const BadPair& p) {
  return Finding{
      "slow-pair", Severity::Warning, name(m, p.i) + " <-> " + name(m, p.j),
      printf_string("%.3f GB/s between them, while every other link of either runs at %.3f GB/s or "
                    "more (margin %.0f%%)",
                    p.pair, p.rest, margin(m) * 100),
      "a bad cable, port or route between these two: test the pair alone (ib_write_bw), check "
      "the switch ports and the routing between them"};
}

std::vector<Finding> find_bad_pairs(const PairMatrix& m) {
  std::vector<Finding> out;
  for (const BadPair& p : bad_pairs(m)) out.push_back(bad_pair_finding(m, p));
  return out;
}

std::vector<Finding> find_links_below_ceiling(const PairMatrix& m, const std::optional<Ceiling>& ceiling) {
  if (!ceiling || ceiling->gbps <= 0) return {};
  double worst = std::numeric_limits<double>::infinity();
  int below = 0, total = 0;
  for (int i = 0; i < m.size(); ++i)
    for (int j = 0; j < m.size(); ++j) {
      if (i == j || at(m, i, j).gbps.empty()) continue;
      ++total;
      const double g = at(m, i, j).median_gbps();
      worst = std::min(worst, g);
      if (g < 0.5 * ceiling->gbps) ++below;
    }
  if (below == 0) return {};
  const bool published = ceiling->expected_high > 0;
  return {Finding{
      "link-below-ceiling", published ? Severity::Warning : Severity::Info, "pairwise links",
      printf_string(
          "%d of %d link directions under half of the %s ceiling of %.1f GB/s (slowest %.3f GB/s, %.0f%%)",
          below, total, ceiling->path.c_str(), ceiling->gbps, worst, worst / ceiling->gbps * 100),
      published
          ? "compare with the expected range (docs/ceilings.md); check link speeds and the transport "
            "NCCL/MPI uses"
          : "no published range for this path: judge against the other links and the sweep's efficiency"}};
}

}  // namespace commtune
