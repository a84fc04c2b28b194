#include "results/run_pool.hpp"

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"
#include "measure/bandwidth.hpp"

namespace commtune {
namespace {

std::string run_label(std::size_t run, std::size_t planned) {
  return "run " + std::to_string(run + 1) + " of " + std::to_string(planned);
}

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// Without the samples (never the case in a sweep), the run with the middle median stands for them.
SampleStats pooled_stats(const std::vector<CaseResult>& runs, std::vector<double>& samples) {
  for (const auto& r : runs) samples.insert(samples.end(), r.samples_us.begin(), r.samples_us.end());
  const bool every_run_has_samples =
      std::all_of(runs.begin(), runs.end(), [](const CaseResult& r) { return !r.samples_us.empty(); });
  if (every_run_has_samples) return summarize(samples);
  samples.clear();
  std::vector<const CaseResult*> order;
  for (const auto& r : runs) order.push_back(&r);
  std::sort(order.begin(), order.end(),
            [](auto* a, auto* b) { return a->time_us.median < b->time_us.median; });
  return order[(order.size() - 1) / 2]->time_us;
}

// The pooled arrivals are the tally of every run's iterations, while every run has them.
void pool_arrivals(const std::vector<CaseResult>& runs, CaseResult& out) {
  out.arrival_samples.clear();
  out.arrivals.reset();
  for (const auto& r : runs) {
    if (r.arrival_samples.empty()) {
      out.arrival_samples.clear();
      return;
    }
    out.arrival_samples.insert(out.arrival_samples.end(), r.arrival_samples.begin(), r.arrival_samples.end());
  }
  if (out.arrival_samples.size() == out.time_us.count)
    out.arrivals = tally_arrivals(out.arrival_samples, out.nranks);
}

// The pooled CPU shares are the mean over the runs, while every run has them for the same ranks.
void pool_cpu_share(const std::vector<CaseResult>& runs, CaseResult& out) {
  out.cpu_share.assign(runs.front().cpu_share.size(), 0.0);
  for (const auto& r : runs) {
    if (r.cpu_share.size() != out.cpu_share.size()) {
      out.cpu_share.clear();
      return;
    }
    for (std::size_t i = 0; i < r.cpu_share.size(); ++i)
      out.cpu_share[i] += r.cpu_share[i] / static_cast<double>(runs.size());
  }
}

// Every run's cost added up; none where no run has one (cases read from an older file).
std::optional<CaseCost> pooled_cost(const std::vector<CaseResult>& runs) {
  std::optional<CaseCost> total;
  for (const CaseResult& r : runs)
    if (r.cost) {
      if (!total) total = CaseCost{};
      *total += *r.cost;
    }
  return total;
}

}  // namespace

CaseResult pool_runs(const std::vector<CaseResult>& runs, std::size_t planned_runs) {
  if (runs.empty()) throw Error("pool_runs: no run to pool");
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (runs[i].status != CaseStatus::Ok) {
      CaseResult bad = runs[i];
      bad.reason = run_label(i, planned_runs) + ": " + bad.reason;
      bad.cost = pooled_cost(runs);
      return bad;
    }
  CaseResult out = runs.front();
  out.cost = pooled_cost(runs);
  out.samples_us.clear();
  out.time_us = pooled_stats(runs, out.samples_us);
  out.run_medians_us.clear();
  out.run_nccl_tests_us.clear();
  std::vector<double> pipelined;
  for (const auto& r : runs) {
    out.run_medians_us.push_back(r.time_us.median);
    pipelined.push_back(r.pipelined_us);
    if (r.nccl_tests) out.run_nccl_tests_us.push_back(r.nccl_tests->time_us);
  }
  out.pipelined_us = mean_of(pipelined);
  pool_arrivals(runs, out);
  pool_cpu_share(runs, out);
  out.algbw_gbps = algorithm_bandwidth_gbps(out.spec.bytes, out.time_us.median * 1e-6);
  out.busbw_gbps =
      bus_bandwidth_gbps(out.spec.collective, out.spec.bytes, out.time_us.median * 1e-6, out.nranks);
  if (out.run_nccl_tests_us.size() == runs.size())
    out.nccl_tests = loop_figure(out.spec, out.nranks, mean_of(out.run_nccl_tests_us) * 1e-6);
  else {
    out.nccl_tests.reset();
    out.run_nccl_tests_us.clear();
  }
  return out;
}

}  // namespace commtune
