#pragma once
// Baselines vs currents, case by case (same setting, collective, size, placement, type, op, rank
// count), on the spread between runs (tune/run_verdict.hpp): each side is one or more results
// files (commtune's, a repeated sweep's, nccl-tests' JSON), every run of every file one figure.
// Then the whole comparison's significance (tune/run_permutation.hpp): a SLOWER (FASTER) case
// whose passes do not separate beyond what relabelling them gives by chance (p > 5%) becomes
// AMBIGUOUS, so a sweep of many cases keeps its false-alarm rate. Then consistency over sizes: a SLOWER (or
// FASTER) size with no neighbouring size of the same setting and collective alike keeps its verdict only on
// strong evidence, else it is AMBIGUOUS; the SLOWER sizes are reported as ranges. A case that measured in the
// baseline but fails or produces wrong data now is SLOWER. Different backends, or no case in common, is an
// InputError.
#include <optional>
#include <string>
#include <vector>

#include "results/results_document.hpp"
#include "tune/case_runs.hpp"
#include "tune/provenance_diff.hpp"
#include "tune/run_permutation.hpp"
#include "tune/run_verdict.hpp"

namespace commtune {

struct CaseComparison {
  std::string setting;
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  Placement placement = Placement::OutOfPlace;
  DataType dtype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;
  Verdict verdict = Verdict::Same;
  SampleStats baseline,
      current;  // the first file's time_us of each side (empty: not measured, nccl-tests basis)
  std::vector<double> baseline_runs, current_runs;  // the figures judged, one per run
  double change = 0;                                // median of current runs / median of baseline runs - 1
  double change_low = 0, change_high = 0;           // its interval
  bool widened = false;                             // too few runs: judged with the default between-run noise
  bool measured = false;  // both sides measured ok (else a status change, in the note)
  std::string note;       // status change, lone size
};

// Neighbouring SLOWER sizes of one setting and collective (any placement), smallest to largest.
struct SlowerRange {
  std::string setting;
  Collective collective = Collective::AllReduce;
  std::uint64_t first_bytes = 0, last_bytes = 0;
  std::size_t cases = 0;
};

struct CompareOptions {
  double threshold = 0.05;
  double run_noise = kDefaultRunNoise;
};

struct CompareReport {
  double threshold = 0.05;
  double run_noise = kDefaultRunNoise;
  TimeBasis basis = TimeBasis::Median;
  std::size_t baseline_files = 1, current_files = 1;
  std::size_t baseline_runs = 0, current_runs = 0;  // fewest runs any compared case has, per side
  std::vector<ProvenanceDifference> provenance;     // first baseline vs first current
  std::vector<CaseComparison> cases;
  std::vector<SlowerRange> slower_ranges;
  std::vector<std::string> only_in_baseline, only_in_current;
  std::vector<std::string> notes;  // interrupted sweeps, widened verdicts, cases left out
  // The whole comparison's permutation test over passes (absent: every case was widened).
  std::optional<Significance> significance;
  std::size_t baseline_passes = 0, current_passes = 0;
  std::size_t count(Verdict v) const;
  bool regression() const { return count(Verdict::Slower) > 0; }
  bool any_widened() const;
  const CaseComparison* worst_slower() const;  // the SLOWER case with the largest change
};

// `origins` name the files in notes and messages; every document must be usable (cases, complete
// or allowed). Throws InputError on a bad threshold or noise, mixed backends, no case in common.
CompareReport compare_results(const std::vector<const ResultsDocument*>& baselines,
                              const std::vector<std::string>& baseline_origins,
                              const std::vector<const ResultsDocument*>& currents,
                              const std::vector<std::string>& current_origins, const CompareOptions& options);
// One file each side.
CompareReport compare_results(const ResultsDocument& baseline, const ResultsDocument& current,
                              const CompareOptions& options);

}  // namespace commtune
