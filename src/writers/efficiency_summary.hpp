#pragma once
// The tune summary's efficiency part: each setting's peak busbw per collective against the run's
// ceiling (provenance.ceiling), and the one-line verdict for the best of them. Nothing when the
// run has no ceiling.
#include <ostream>

#include "results/results_document.hpp"

namespace commtune {

void write_efficiency_summary(const ResultsDocument& doc, std::ostream& out);

}  // namespace commtune
