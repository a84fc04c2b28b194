#include "tune_test_support.hpp"

#include <cmath>

namespace commtune::testing {

std::string source_path(const std::string& relative) {
  return std::string(COMMTUNE_SOURCE_DIR) + "/" + relative;
}

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
  doc.backend = parse_backend(backend, "a synthetic document");
  doc.settings = std::move(settings);
  doc.cases = std::move(cases);
  doc.complete = true;
  return doc;
}

ResultsDocument series_run(std::mt19937& rng, std::size_t runs, double drift, double sigma, double shift,
                           std::uint64_t from) {
  std::normal_distribution<double> common(0, drift), own(0, sigma);
  std::vector<double> factors;
  for (std::size_t r = 0; r < runs; ++r) factors.push_back(std::exp(common(rng)));
  std::vector<CaseResult> cases;
  for (std::uint64_t bytes = 256 << 10; bytes <= (4u << 20); bytes *= 2)
    for (Placement p : {Placement::OutOfPlace, Placement::InPlace}) {
      const double center = static_cast<double>(bytes) / 1000 * (bytes >= from ? 1 + shift : 1);
      std::vector<double> medians;
      for (std::size_t r = 0; r < runs; ++r) medians.push_back(center * factors[r] * std::exp(own(rng)));
      CaseResult c = synthetic_case("default", Collective::AllReduce, bytes, p, medians);
      c.run_medians_us = medians;
      cases.push_back(c);
    }
  return synthetic_document("mpi", {Setting{"default", "", {}, {}}}, cases);
}

}  // namespace commtune::testing
