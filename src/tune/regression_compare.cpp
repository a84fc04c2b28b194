#include "tune/regression_compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/errors.hpp"
#include "plan/sizes.hpp"
#include "tune/comparison.hpp"

namespace commtune {
namespace {

using Key = std::tuple<std::string, Collective, std::uint64_t, Placement, DataType, ReduceOp, int>;

Key key_of(const CaseResult& r) {
  return {r.setting, r.spec.collective, r.spec.bytes, r.spec.placement, r.spec.dtype, r.spec.op, r.nranks};
}

std::string describe(const Key& k) {
  return std::get<0>(k) + " " + std::string(name_of(std::get<1>(k))) + " " + format_size(std::get<2>(k)) + " " +
         std::string(name_of(std::get<3>(k))) + " (" + std::to_string(std::get<6>(k)) + " ranks)";
}

std::map<Key, const CaseResult*> by_key(const ResultsDocument& doc) {
  std::map<Key, const CaseResult*> out;
  for (const auto& r : doc.cases) out[key_of(r)] = &r;
  return out;
}

Verdict measured_verdict(const Comparison& c, double threshold) {
  if (std::abs(c.change) < threshold) return Verdict::Same;
  if (c.disjoint_slower) return Verdict::Slower;
  if (c.disjoint_faster) return Verdict::Faster;
  return Verdict::Ambiguous;
}

CaseComparison compare_case(const CaseResult& base, const CaseResult& cur, double threshold) {
  CaseComparison out{cur.setting, cur.spec.collective, cur.spec.bytes, cur.spec.placement, Verdict::Same,
                     base.time_us, cur.time_us, 0, ""};
  const bool base_ok = base.status == CaseStatus::Ok, cur_ok = cur.status == CaseStatus::Ok;
  if (base_ok && cur_ok) {
    const Comparison c = compare_stats(base.time_us, cur.time_us);
    out.change = c.change;
    out.verdict = measured_verdict(c, threshold);
  } else if (base_ok) {
    out.verdict = Verdict::Slower;
    out.note = "now " + std::string(name_of(cur.status)) + (cur.reason.empty() ? "" : ": " + cur.reason);
  } else {
    out.verdict = cur_ok ? Verdict::Ambiguous : Verdict::Same;
    out.note = "baseline " + std::string(name_of(base.status)) + (cur_ok ? "" : ", now " + std::string(name_of(cur.status)));
  }
  return out;
}

}  // namespace

std::string_view name_of(Verdict v) {
  switch (v) {
    case Verdict::Faster: return "FASTER";
    case Verdict::Slower: return "SLOWER";
    case Verdict::Same: return "SAME";
    case Verdict::Ambiguous: return "AMBIGUOUS";
  }
  return "?";
}

std::size_t CompareReport::count(Verdict v) const {
  return static_cast<std::size_t>(std::count_if(cases.begin(), cases.end(), [&](const auto& c) { return c.verdict == v; }));
}

CompareReport compare_results(const ResultsDocument& baseline, const ResultsDocument& current, double threshold) {
  if (!(threshold >= 0) || !std::isfinite(threshold)) throw InputError("--threshold must be a non-negative fraction");
  if (baseline.backend != current.backend)
    throw InputError("cannot compare a " + baseline.backend + " run with a " + current.backend + " run");
  CompareReport report;
  report.threshold = threshold;
  report.provenance = provenance_differences(baseline.provenance, current.provenance);
  if (!baseline.complete) report.notes.push_back("baseline " + incomplete_note(baseline));
  if (!current.complete) report.notes.push_back("current " + incomplete_note(current));
  const auto base = by_key(baseline), cur = by_key(current);
  for (const auto& [key, r] : base) {
    const auto it = cur.find(key);
    if (it == cur.end()) report.only_in_baseline.push_back(describe(key));
    else report.cases.push_back(compare_case(*r, *it->second, threshold));
  }
  for (const auto& [key, r] : cur)
    if (!base.count(key)) report.only_in_current.push_back(describe(key));
  if (report.cases.empty())
    throw InputError("the two results files have no case in common (setting, collective, size, placement, ranks)");
  return report;
}

}  // namespace commtune
