#include "pairwise/pair_matrix.hpp"

#include <algorithm>

#include "core/json_fields.hpp"
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

constexpr double kMaxGbps = 1e6, kMaxLatencyUs = 1e9, kMaxSpread = 1e9;

// n rows of n values: null on the diagonal, null or a number in [0, high] off it.
PairMap::Values values_at(const nlohmann::json& v, const std::string& path, std::size_t n, double high) {
  if (!v.is_array() || v.size() != n) bad_value(path, "a list of " + std::to_string(n) + " rows", v);
  PairMap::Values rows(n, std::vector<std::optional<double>>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row_path = path + "[" + std::to_string(i) + "]";
    if (!v[i].is_array() || v[i].size() != n)
      bad_value(row_path, "a list of " + std::to_string(n) + " values", v[i]);
    for (std::size_t k = 0; k < n; ++k) {
      const nlohmann::json& value = v[i][k];
      const std::string value_path = row_path + "[" + std::to_string(k) + "]";
      if (i == k && !value.is_null()) bad_value(value_path, "null (a member with itself)", value);
      if (!value.is_null()) rows[i][k] = number_in(value, value_path, 0, high);
    }
  }
  return rows;
}

}  // namespace

double PairEntry::median_gbps() const { return median_of(gbps); }
double PairEntry::median_latency_us() const { return median_of(latency_us); }

double PairEntry::spread() const {
  if (gbps.size() < 2) return 0;
  const SampleStats s = summarize(gbps);
  return s.median > 0 ? (s.p95 - s.p5) / s.median : 0;
}

std::optional<std::pair<double, double>> link_medians(const PairMatrix& m, int a, int b) {
  const PairEntry& ab = m.entries[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  const PairEntry& ba = m.entries[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)];
  if (ab.gbps.empty() || ba.gbps.empty()) return std::nullopt;
  return std::pair{ab.median_gbps(), ba.median_gbps()};
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

PairMap pair_map_of(const PairMatrix& m) {
  const std::size_t n = m.names.size();
  const PairMap::Values none(n, std::vector<std::optional<double>>(n));
  PairMap map{.members = m.names,
              .member_kind = m.unit_of_member,
              .message_bytes = m.message_bytes,
              .gbps = none,
              .latency_us = none,
              .spread = none};
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) {
        const PairEntry& e = m.entries[i][j];
        map.gbps[i][j] = e.median_gbps();
        map.latency_us[i][j] = e.median_latency_us();
        map.spread[i][j] = e.spread();
      }
  return map;
}

nlohmann::json to_json(const PairMap& map) {
  const auto rows = [](const PairMap::Values& values) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& row : values) {
      nlohmann::json r = nlohmann::json::array();
      for (const auto& v : row) r.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
      out.push_back(std::move(r));
    }
    return out;
  };
  return {
      {"members", map.members}, {"member", map.member_kind},          {"message_bytes", map.message_bytes},
      {"gbps", rows(map.gbps)}, {"latency_us", rows(map.latency_us)}, {"spread", rows(map.spread)}};
}

PairMap pair_map_from_json(const nlohmann::json& j, const std::string& where) {
  PairMap map;
  const nlohmann::json& members = list_at(required_field(j, "members", where), where + ".members");
  if (members.empty() || members.size() > kMaxMapMembers)
    bad_value(where + ".members", "1 to " + std::to_string(kMaxMapMembers) + " names", members);
  for (std::size_t i = 0; i < members.size(); ++i)
    map.members.push_back(value_as<std::string>(members[i], where + ".members[" + std::to_string(i) + "]"));
  map.member_kind = field_as<std::string>(j, "member", where);
  map.message_bytes = static_cast<std::uint64_t>(
      integer_in(required_field(j, "message_bytes", where), where + ".message_bytes", 1, 1ll << 40));
  const auto values = [&](const char* key, double high) {
    return values_at(required_field(j, key, where), member_path(where, key), members.size(), high);
  };
  map.gbps = values("gbps", kMaxGbps);
  map.latency_us = values("latency_us", kMaxLatencyUs);
  map.spread = values("spread", kMaxSpread);
  return map;
}

}  // namespace commtune
