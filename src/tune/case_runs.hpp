#pragma once
// One side of a comparison (the baseline, or the current run), gathered from one or more results
// files: per case, every run's figure, in file order, then run order. A repeated sweep's case
// gives its run_medians_us; a single run its median (and the median's interval). A side of several
// files counts launches, not runs: each file is one figure per case (the median of its runs) and
// one pass, since the runs of one launch share its conditions (rank placement, the machine's
// state) and are not exchangeable with another launch's; the rank test and the permutation test
// then run over launches. On the nccl-tests
// basis (when either side is an nccl-tests JSON file) a commtune case gives nccl-tests' figure of
// each run (nccl_tests_run_us, nccl_tests_us), and a case without it is left out.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "results/results_document.hpp"
#include "tune/run_verdict.hpp"

namespace commtune {

enum class TimeBasis {
  Median,     // commtune's: the median per-iteration time, max over ranks
  NcclTests,  // nccl-tests': each rank's timed-loop time / iterations, mean over ranks
};
std::string_view name_of(TimeBasis basis);

// What compare matches cases on. A non-reducing collective's op means nothing (nccl-tests: none).
using CompareKey = std::tuple<std::string, Collective, std::uint64_t, Placement, DataType, ReduceOp, int>;
CompareKey compare_key(const CaseResult& r);
std::string describe(const CompareKey& key);

struct SideCase {
  CaseStatus status = CaseStatus::Ok;  // the first file's problem with this case, if any
  std::string reason;
  CaseRuns runs;      // only when every file measured it ok
  SampleStats first;  // the first file's time_us (median basis), for the report
};

struct Side {
  std::map<CompareKey, SideCase> cases;
  std::size_t passes = 0;  // the side's passes over its plan: each file's runs, numbered in file order
                           // (several files: one per file)
  std::vector<std::string> notes;  // cases left out for want of an nccl-tests figure
};

// `origins[i]` names `documents[i]` in the notes.
Side gather_side(const std::vector<const ResultsDocument*>& documents,
                 const std::vector<std::string>& origins, TimeBasis basis);

// The nccl-tests basis when any document came from nccl-tests' JSON.
TimeBasis time_basis(const std::vector<const ResultsDocument*>& documents);

}  // namespace commtune
