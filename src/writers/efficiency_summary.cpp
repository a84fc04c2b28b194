#include "writers/efficiency_summary.hpp"

#include <map>
#include <utility>

#include "core/text_format.hpp"
#include "measure/bandwidth.hpp"
#include "ceiling/ceiling.hpp"

namespace commtune {

void write_efficiency_summary(const ResultsDocument& doc, std::ostream& out) {
  const auto ceiling = ceiling_from_provenance(doc.provenance);
  if (!ceiling) return;
  std::map<std::pair<std::string, Collective>, double> peaks;
  for (const auto& c : doc.cases)
    if (c.measured() && measures_bandwidth(c.nranks)) {  // one rank moves nothing between ranks
      double& peak = peaks[{c.setting, c.spec.collective}];
      peak = std::max(peak, c.busbw_gbps);
    }
  if (peaks.empty()) return;
  out << "# efficiency against the ceiling " << printf_string("%.1f GB/s", ceiling->gbps) << " ("
      << ceiling->path << ")\n";
  const std::pair<std::string, Collective>* best = nullptr;
  for (const auto& [key, peak] : peaks) {
    out << "  "
        << printf_string("%-32s %-14s peak %9.3f GB/s  %6.1f%%", key.first.c_str(),
                         std::string(name_of(key.second)).c_str(), peak, efficiency(peak, *ceiling) * 100)
        << "\n";
    if (!best || peak > peaks.at(*best)) best = &key;
  }
  out << "  verdict: " << efficiency_verdict(peaks.at(*best), *ceiling) << "\n";
}

}  // namespace commtune
