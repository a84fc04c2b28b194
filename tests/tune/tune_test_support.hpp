#pragma once
// Helpers for the tuner tests: synthetic results documents built from sample vectors and fixture
// paths. Golden files are compared by tests/unit/golden.hpp.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "results/results_document.hpp"

namespace commtune::testing {

std::string source_path(const std::string& relative);

// One case of `setting` at (collective, bytes, placement) summarised from samples (us).
CaseResult synthetic_case(const std::string& setting, Collective c, std::uint64_t bytes, Placement p,
                          const std::vector<double>& samples_us, int nranks = 4);

ResultsDocument synthetic_document(const std::string& backend, std::vector<Setting> settings,
                                   std::vector<CaseResult> cases);

// One sweep of the default's all-reduce, 256 KiB to 4 MiB in both placements, with `runs` runs per
// case (run_medians_us): every run drifts by a common lognormal factor (spread `drift`), every case
// by its own (`sigma`); sizes at or above `from` are `shift` slower.
ResultsDocument series_run(std::mt19937& rng, std::size_t runs, double drift, double sigma, double shift,
                           std::uint64_t from);

}  // namespace commtune::testing
