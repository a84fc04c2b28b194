#include "tune_test_support.hpp"

namespace commtune::testing {

std::string source_path(const std::string& relative) { return std::string(COMMTUNE_SOURCE_DIR) + "/" + relative; }

CaseResult synthetic_case(const std::string& setting, Collective c, std::uint64_t bytes, Placement p,
                          const std::vector<double>& samples_us, int nranks) {
  Case spec;
  spec.collective = c;
  spec.bytes = bytes;
  spec.count = bytes / 4;
  spec.placement = p;
  std::vector<double> seconds;
  for (double us : samples_us) seconds.push_back(us * 1e-6);
  return measured_case(spec, setting, nranks, seconds, 0.0, 0);
}

ResultsDocument synthetic_document(const std::string& backend, std::vector<Setting> settings,
                                   std::vector<CaseResult> cases) {
  ResultsDocument doc;
  doc.schema_version = 1;
  doc.backend = backend;
  doc.settings = std::move(settings);
  doc.cases = std::move(cases);
  doc.complete = true;
  return doc;
}

}  // namespace commtune::testing
