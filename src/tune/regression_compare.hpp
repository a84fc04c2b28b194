#pragma once
// Baseline vs current, case by case (same setting, collective, size, placement, type, op, rank
// count): FASTER / SLOWER when the median CIs are disjoint and the change is at least the
// threshold; SAME when the change is under the threshold; AMBIGUOUS when the change is large
// but the intervals overlap (too noisy to tell). A case that measured in the baseline but fails
// or produces wrong data now is SLOWER. Different backends, or no case in common, is an
// InputError (exit 2).
#include <string>
#include <vector>

#include "results/results_document.hpp"
#include "tune/provenance_diff.hpp"

namespace commtune {

enum class Verdict { Faster, Slower, Same, Ambiguous };
std::string_view name_of(Verdict v);

struct CaseComparison {
  std::string setting;
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  Placement placement = Placement::OutOfPlace;
  Verdict verdict = Verdict::Same;
  SampleStats baseline, current;  // time_us of each side (empty when not measured)
  double change = 0;              // (current - baseline) / baseline median
  std::string note;               // status change, if any
};

struct CompareReport {
  double threshold = 0.05;
  std::vector<ProvenanceDifference> provenance;
  std::vector<CaseComparison> cases;
  std::vector<std::string> only_in_baseline, only_in_current;
  std::vector<std::string> notes;  // an interrupted sweep on either side (--allow-incomplete)
  std::size_t count(Verdict v) const;
  bool regression() const { return count(Verdict::Slower) > 0; }
};

CompareReport compare_results(const ResultsDocument& baseline, const ResultsDocument& current, double threshold);

}  // namespace commtune
