#include "tune/case_runs.hpp"

#include <algorithm>
#include <optional>

#include "core/collective_traits.hpp"
#include "measure/statistics.hpp"
#include "plan/sizes.hpp"
#include "results/results_input.hpp"

namespace commtune {
namespace {

// The run figures a measured case offers on `basis`; empty when it has none there.
std::vector<double> run_figures(const CaseResult& r, TimeBasis basis) {
  if (basis == TimeBasis::Median)
    return r.run_medians_us.empty() ? std::vector<double>{r.time_us.median} : r.run_medians_us;
  if (!r.run_nccl_tests_us.empty()) return r.run_nccl_tests_us;
  if (r.nccl_tests) return {r.nccl_tests->time_us};
  return {};
}

// Where this file's runs of a case go: each its own pass (first_pass, first_pass + 1, ...), or,
// with `launch` set, one figure for the whole file, the median of its runs, as pass `launch`.
struct Placing {
  std::size_t first_pass = 0;
  std::optional<std::size_t> launch;
};

void add_case(SideCase& side, const CaseResult& r, TimeBasis basis, bool first_file, const Placing& placing) {
  if (side.status != CaseStatus::Ok) return;
  if (r.status != CaseStatus::Ok) {
    side.status = r.status;
    side.reason = r.reason;
    side.runs = {};
    return;
  }
  std::vector<double> figures = run_figures(r, basis);
  const bool several = figures.size() > 1;
  if (placing.launch && several) figures = {summarize(figures).median};
  side.runs.run_us.insert(side.runs.run_us.end(), figures.begin(), figures.end());
  for (std::size_t j = 0; j < figures.size(); ++j)
    side.runs.pass.push_back(placing.launch ? *placing.launch : placing.first_pass + j);
  if (first_file && basis == TimeBasis::Median) side.first = r.time_us;
  const bool one_run = side.runs.run_us.size() == 1 && !several && basis == TimeBasis::Median;
  side.runs.ci_low = one_run ? r.time_us.median_ci_low : 0;
  side.runs.ci_high = one_run ? r.time_us.median_ci_high : 0;
}

}  // namespace

std::string_view name_of(TimeBasis basis) {
  return basis == TimeBasis::Median ? "median per-iteration time (max over ranks)"
                                    : "nccl-tests' time (timed-loop time / iterations, mean over ranks)";
}

CompareKey compare_key(const CaseResult& r) {
  const ReduceOp op = traits_of(r.spec.collective).reduces ? r.spec.op : ReduceOp::Sum;
  const std::string setting = series_name(r.setting, r.spec.group);
  return {setting, r.spec.collective, r.spec.bytes, r.spec.placement, r.spec.dtype, op, r.nranks};
}

std::string describe(const CompareKey& k) {
  return std::get<0>(k) + " " + std::string(name_of(std::get<1>(k))) + " " + format_size(std::get<2>(k)) +
         " " + std::string(name_of(std::get<3>(k))) + " (" + std::to_string(std::get<6>(k)) + " ranks)";
}

TimeBasis time_basis(const std::vector<const ResultsDocument*>& documents) {
  for (const ResultsDocument* d : documents)
    if (from_nccl_tests(*d)) return TimeBasis::NcclTests;
  return TimeBasis::Median;
}

Side gather_side(const std::vector<const ResultsDocument*>& documents,
                 const std::vector<std::string>& origins, TimeBasis basis) {
  Side side;
  const bool by_launch = documents.size() >= 2;
  for (std::size_t i = 0; i < documents.size(); ++i) {
    std::size_t left_out = 0, file_passes = 0;
    for (const CaseResult& r : documents[i]->cases) {
      if (r.status == CaseStatus::Ok && run_figures(r, basis).empty()) {
        ++left_out;
        continue;
      }
      add_case(side.cases[compare_key(r)], r, basis, i == 0,
               Placing{side.passes, by_launch ? std::optional<std::size_t>(i) : std::nullopt});
      file_passes = std::max(file_passes, run_figures(r, basis).size());
    }
    side.passes += by_launch ? 1 : file_passes;
    if (left_out > 0)
      side.notes.push_back(origins[i] + ": " + std::to_string(left_out) +
                           " case(s) without nccl-tests' time (nccl_tests_us) left out");
  }
  return side;
}

}  // namespace commtune
