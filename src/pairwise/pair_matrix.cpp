#include "pairwise/pair_matrix.hpp"

#include <algorithm>

#include "core/text_format.hpp"
#include "measure/statistics.hpp"

namespace commtune {
namespace {

double median_of(std::vector<double> v) { return v.empty() ? 0 : summarize(std::move(v)).median; }

void write_table(const PairMatrix& m, std::ostream& out, const char* title,
                 double (PairEntry::*value)() const, const char* format) {
  out << "# " << title << "\n#" << printf_string("%12s", "from \\ to");
  for (int j = 0; j < m.size(); ++j)
    out << printf_string(" %10.10s", m.names[static_cast<std::size_t>(j)].c_str());
  out << "\n";
  for (int i = 0; i < m.size(); ++i) {
    out << printf_string(" %12.12s", m.names[static_cast<std::size_t>(i)].c_str());
    for (int j = 0; j < m.size(); ++j)
      out << (i == j ? printf_string(" %10s", "-")
                     : printf_string(
                           format,
                           (m.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].*value)()));
    out << "\n";
  }
}

}  // namespace

double PairEntry::median_gbps() const { return median_of(gbps); }
double PairEntry::median_latency_us() const { return median_of(latency_us); }

double PairEntry::spread() const {
  if (gbps.size() < 2) return 0;
  const SampleStats s = summarize(gbps);
  return s.median > 0 ? (s.p95 - s.p5) / s.median : 0;
}

PairMatrix empty_matrix(std::vector<std::string> names, std::string unit, std::size_t bytes) {
  const std::size_t n = names.size();
  return PairMatrix{std::move(names), std::move(unit), bytes,
                    std::vector<std::vector<PairEntry>>(n, std::vector<PairEntry>(n))};
}

void write_matrix(const PairMatrix& m, std::ostream& out) {
  write_table(m, out,
              ("pairwise bandwidth (GB/s per direction, " + std::to_string(m.message_bytes >> 10) +
               " KiB messages, both directions at once, median), one " + m.unit_of_member + " per row")
                  .c_str(),
              &PairEntry::median_gbps, " %10.3f");
  write_table(m, out, "pairwise latency (us, 8-byte exchange, median)", &PairEntry::median_latency_us,
              " %10.2f");
}

nlohmann::json to_json(const PairMatrix& m) {
  nlohmann::json gbps = nlohmann::json::array(), latency = nlohmann::json::array(),
                 spread = nlohmann::json::array();
  for (int i = 0; i < m.size(); ++i) {
    nlohmann::json g = nlohmann::json::array(), l = nlohmann::json::array(), s = nlohmann::json::array();
    for (int j = 0; j < m.size(); ++j) {
      const PairEntry& e = m.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      g.push_back(i == j ? nlohmann::json(nullptr) : nlohmann::json(e.median_gbps()));
      l.push_back(i == j ? nlohmann::json(nullptr) : nlohmann::json(e.median_latency_us()));
      s.push_back(i == j ? nlohmann::json(nullptr) : nlohmann::json(e.spread()));
    }
    gbps.push_back(g), latency.push_back(l), spread.push_back(s);
  }
  return {{"members", m.names}, {"member", m.unit_of_member}, {"message_bytes", m.message_bytes},
          {"gbps", gbps},       {"latency_us", latency},      {"spread", spread}};
}

}  // namespace commtune
