#pragma once
// One case measured in several runs of a repeated sweep (--repeat N), folded into the case the
// results file keeps: time_us summarises every run's samples pooled (what tune reads, as for a
// single run), run_medians_us keeps each run's median (what compare reads: the between-run
// spread), and on NCCL nccl_tests_us is the runs' mean with nccl_tests_run_us each run's figure.
// A run that failed or produced wrong data decides the case: it is kept, its reason naming the run.
#include <vector>

#include "results/case_result.hpp"

namespace commtune {

// `runs`: the same case, one result per run, in run order (at least one).
CaseResult pool_runs(const std::vector<CaseResult>& runs, std::size_t planned_runs);

}  // namespace commtune
