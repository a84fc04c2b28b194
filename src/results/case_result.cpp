#include "results/case_result.hpp"

#include <utility>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "core/name_table.hpp"
#include "measure/bandwidth.hpp"

namespace commtune {
namespace {

constexpr NameTable<CaseStatus, 5> kStatusNames{{{CaseStatus::Ok, "ok"},
                                                 {CaseStatus::WrongData, "wrong-data"},
                                                 {CaseStatus::Failed, "failed"},
                                                 {CaseStatus::TimedOut, "timed-out"},
                                                 {CaseStatus::Skipped, "skipped"}}};

constexpr NameTable<SampleUnit, 3> kSampleUnitNames{{{SampleUnit::Iteration, "iteration"},
                                                     {SampleUnit::BatchMean, "batch-mean"},
                                                     {SampleUnit::Block, "block"}}};

// The sampling's share of a case's cost: the case's own seconds come from the sweep that ran it.
CaseCost sampling_cost(const SampleRun& run) {
  return CaseCost{
      .case_s = 0, .warmup_s = run.warmup_seconds, .timed_s = run.seconds, .timed_calls = run.iterations};
}

}  // namespace

std::string_view name_of(SampleUnit u) { return name_in(kSampleUnitNames, u); }

SampleUnit parse_sample_unit(std::string_view text) {
  if (const std::optional<SampleUnit> unit = value_in(kSampleUnitNames, text)) return *unit;
  throw InputError("unknown sample unit '" + std::string(text) + "' (known: " + names_in(kSampleUnitNames) +
                   ")");
}

std::string_view name_of(CaseStatus s) { return name_in(kStatusNames, s); }

CaseStatus parse_case_status(std::string_view text) {
  if (const std::optional<CaseStatus> status = value_in(kStatusNames, text)) return *status;
  throw InputError("unknown case status " + quote_text(text) + " (known: " + names_in(kStatusNames) + ")");
}

CaseCost& CaseCost::operator+=(const CaseCost& other) {
  case_s += other.case_s;
  warmup_s += other.warmup_s;
  timed_s += other.timed_s;
  timed_calls += other.timed_calls;
  return *this;
}

CaseResult failed_case(const Case& spec, const std::string& setting, int nranks, CaseStatus status,
                       std::string reason) {
  CaseResult r;
  r.spec = spec;
  r.setting = setting;
  r.nranks = nranks;
  r.status = status;
  r.reason = std::move(reason);
  return r;
}

CaseResult measured_case(const Case& spec, const std::string& setting, int nranks,
                         const std::vector<double>& seconds, double pipelined_seconds, std::int64_t wrong) {
  CaseResult r;
  r.spec = spec;
  r.setting = setting;
  r.nranks = nranks;
  std::vector<double> micros;
  micros.reserve(seconds.size());
  for (double s : seconds) micros.push_back(s * 1e6);
  r.samples_us = micros;
  r.time_us = summarize(std::move(micros));
  r.pipelined_us = pipelined_seconds * 1e6;
  r.algbw_gbps = algorithm_bandwidth_gbps(spec.bytes, r.time_us.median * 1e-6);
  r.busbw_gbps = bus_bandwidth_gbps(spec.collective, spec.bytes, r.time_us.median * 1e-6, nranks);
  r.wrong = wrong;
  r.status = wrong > 0 ? CaseStatus::WrongData : CaseStatus::Ok;
  if (wrong > 0) r.reason = std::to_string(wrong) + " elements differ from the expected result";
  return r;
}

LoopFigure loop_figure(const Case& spec, int nranks, double seconds_per_iteration) {
  return LoopFigure{seconds_per_iteration * 1e6, algorithm_bandwidth_gbps(spec.bytes, seconds_per_iteration),
                    bus_bandwidth_gbps(spec.collective, spec.bytes, seconds_per_iteration, nranks)};
}

CaseResult measured_case(const Case& spec, const std::string& setting, int nranks, const SampleRun& run,
                         std::int64_t wrong) {
  CaseResult r = measured_case(spec, setting, nranks, run.samples, run.pipelined_seconds, wrong);
  r.sample_unit = run.unit;
  if (run.unit == SampleUnit::Block) r.sample_block = run.block;
  r.cost = sampling_cost(run);
  if (const std::optional<double> loop = run.loop_seconds_per_iteration())
    r.nccl_tests = loop_figure(spec, nranks, *loop);
  if (nranks >= 2 && !run.inside_s.empty() &&
      run.inside_s.size() == run.samples.size() * static_cast<std::size_t>(nranks)) {
    r.arrival_samples = last_arrivals(run.inside_s, nranks);
    r.arrivals = tally_arrivals(r.arrival_samples, nranks);
  }
  if (const std::vector<double> share = run.cpu_share(); share.size() == static_cast<std::size_t>(nranks))
    r.cpu_share = share;
  return r;
}

CaseResult grouped_case(const Case& spec, const std::string& setting, const GroupLayout& layout,
                        const std::vector<std::vector<double>>& group_seconds, const SampleRun& run,
                        std::int64_t wrong) {
  CaseGroups groups{.shape = layout.shape(), .groups = {}, .slowest = 0, .busbw_sum_gbps = 0};
  for (std::size_t g = 0; g < layout.groups.size(); ++g) {
    const RankGroup& members = layout.groups[g];
    const int nranks = static_cast<int>(members.ranks.size());
    std::vector<double> micros;
    for (double s : group_seconds.at(g)) micros.push_back(s * 1e6);
    GroupFigure figure{
        .ranks = members.ranks, .nodes = members.nodes, .time_us = summarize(std::move(micros))};
    const double median_s = figure.time_us.median * 1e-6;
    figure.algbw_gbps = algorithm_bandwidth_gbps(spec.bytes, median_s);
    figure.busbw_gbps = bus_bandwidth_gbps(spec.collective, spec.bytes, median_s, nranks);
    groups.busbw_sum_gbps += figure.busbw_gbps;
    if (figure.time_us.median > (g == 0 ? -1.0 : groups.groups[groups.slowest].time_us.median))
      groups.slowest = g;
    groups.groups.push_back(std::move(figure));
  }
  const int slowest_ranks = static_cast<int>(layout.groups.at(groups.slowest).ranks.size());
  Case slowest_spec = spec;  // the count of the slowest group's ranks (uneven groups differ)
  slowest_spec.count = buffer_counts(spec.collective, spec.bytes, spec.dtype, slowest_ranks).count;
  CaseResult r = measured_case(slowest_spec, setting, slowest_ranks, group_seconds[groups.slowest],
                               run.pipelined_seconds, wrong);
  r.sample_unit = run.unit;
  if (run.unit == SampleUnit::Block) r.sample_block = run.block;
  r.cost = sampling_cost(run);
  r.groups = std::move(groups);
  return r;
}

}  // namespace commtune
