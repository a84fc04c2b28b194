#pragma once
// Several results files of the same plan, each its own launch (`tune A.json B.json C.json`),
// folded into one document whose cases carry every launch's runs: run_medians_us is each file's
// runs in file order (a file's run_medians_us, or its median when it ran once), and time_us is
// the statistics of the launch with the middle median (a file keeps no samples to pool). A case
// that failed or produced wrong data in any launch is kept as that launch's result, its reason
// naming the file. The first file's provenance, options and settings are kept.
#include <string>
#include <vector>

#include "results/results_document.hpp"

namespace commtune {

// Throws InputError naming the file when it differs from the first: another backend, rank
// count, settings, or set of cases (setting, collective, size, type, op, root, placement).
ResultsDocument merge_launches(const std::vector<ResultsDocument>& documents,
                               const std::vector<std::string>& origins);

}  // namespace commtune
