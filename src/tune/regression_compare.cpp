#include "tune/regression_compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/errors.hpp"
#include "core/text_format.hpp"

namespace commtune {
namespace {

void check_options(const CompareOptions& o) {
  if (!(o.threshold >= 0) || !std::isfinite(o.threshold))
    throw InputError("--threshold must be a non-negative fraction");
  if (!(o.run_noise >= 0) || !std::isfinite(o.run_noise))
    throw InputError("--run-noise must be a non-negative fraction");
}

void check_backends(const std::vector<const ResultsDocument*>& all) {
  for (const ResultsDocument* d : all)
    if (d->backend != all.front()->backend)
      throw InputError("cannot compare a " + std::string(name_of(all.front()->backend)) + " run with a " +
                       std::string(name_of(d->backend)) + " run");
}

void note_incomplete(const std::vector<const ResultsDocument*>& docs, const std::vector<std::string>& origins,
                     const std::string& side, std::vector<std::string>& notes) {
  for (std::size_t i = 0; i < docs.size(); ++i)
    if (!docs[i]->complete)
      notes.push_back(side + (docs.size() > 1 ? " " + origins[i] : std::string()) + " " +
                      incomplete_note(*docs[i]));
}

CaseComparison start_case(const CompareKey& key) {
  CaseComparison out;
  out.setting = std::get<0>(key);
  out.collective = std::get<1>(key);
  out.bytes = std::get<2>(key);
  out.placement = std::get<3>(key);
  out.dtype = std::get<4>(key);
  out.op = std::get<5>(key);
  return out;
}

CaseComparison compare_case(const CompareKey& key, const SideCase& base, const SideCase& cur,
                            const RunRule& rule) {
  CaseComparison out = start_case(key);
  out.baseline = base.first;
  out.current = cur.first;
  const bool base_ok = base.status == CaseStatus::Ok, cur_ok = cur.status == CaseStatus::Ok;
  if (base_ok && cur_ok) {
    const RunsVerdict j = runs_verdict(base.runs, cur.runs, rule);
    out.baseline_runs = base.runs.run_us;
    out.current_runs = cur.runs.run_us;
    out.verdict = j.verdict;
    out.change = j.change;
    out.change_low = j.change_low;
    out.change_high = j.change_high;
    out.widened = j.widened;
    out.measured = true;
  } else if (base_ok) {
    out.baseline_runs = base.runs.run_us;
    out.verdict = Verdict::Slower;
    out.note = "now " + std::string(name_of(cur.status)) + (cur.reason.empty() ? "" : ": " + cur.reason);
  } else {
    out.current_runs = cur.runs.run_us;
    out.verdict = cur_ok ? Verdict::Ambiguous : Verdict::Same;
    out.note = "baseline " + std::string(name_of(base.status)) +
               (cur_ok ? "" : ", now " + std::string(name_of(cur.status)));
  }
  return out;
}

// A size series: one setting and collective (with its type and op), every size compared.
using SeriesKey = std::tuple<std::string, Collective, DataType, ReduceOp>;

SeriesKey series_of(const CaseComparison& c) { return {c.setting, c.collective, c.dtype, c.op}; }

std::map<SeriesKey, std::vector<std::uint64_t>> series_sizes(const std::vector<CaseComparison>& cases) {
  std::map<SeriesKey, std::set<std::uint64_t>> sets;
  for (const auto& c : cases) sets[series_of(c)].insert(c.bytes);
  std::map<SeriesKey, std::vector<std::uint64_t>> out;
  for (const auto& [key, sizes] : sets) out[key].assign(sizes.begin(), sizes.end());
  return out;
}

bool size_has(const std::vector<CaseComparison>& cases, const SeriesKey& series, std::uint64_t bytes,
              Verdict v) {
  return std::any_of(cases.begin(), cases.end(), [&](const CaseComparison& c) {
    return c.verdict == v && c.bytes == bytes && series_of(c) == series;
  });
}

// A measured verdict v at a size whose neighbours (in its series) have no v needs strong evidence.
void demote_lone_sizes(std::vector<CaseComparison>& cases, Verdict v, const RunRule& rule) {
  const auto series = series_sizes(cases);
  std::vector<CaseComparison*> demote;
  for (auto& c : cases) {
    if (c.verdict != v || !c.measured) continue;
    const auto& sizes = series.at(series_of(c));
    const auto at = std::find(sizes.begin(), sizes.end(), c.bytes) - sizes.begin();
    const bool before = at > 0 && size_has(cases, series_of(c), sizes[at - 1], v);
    const bool after =
        at + 1 < static_cast<std::ptrdiff_t>(sizes.size()) && size_has(cases, series_of(c), sizes[at + 1], v);
    if (before || after) continue;
    const RunsVerdict j{c.verdict, c.change, c.change_low, c.change_high, c.widened};
    if (!strong_evidence(j, rule.threshold)) demote.push_back(&c);
  }
  for (CaseComparison* c : demote) {
    c->verdict = Verdict::Ambiguous;
    c->note =
        printf_string("lone size: %s here only, and its change interval does not clear %.0fx the threshold",
                      std::string(name_of(v)).c_str(), kLoneSizeFactor);
  }
}

// The permutation test over passes for the measured cases (a widened case on its widened band), when
// the passes can give p <= kComparisonAlpha at all (else the widening alone decides); a SLOWER
// or FASTER verdict the whole comparison does not carry becomes AMBIGUOUS. A case the comparison
// finds changed one way is left out of the other way's test: relabelled, a real speed-up would
// look like a slowdown and hide the real slowdowns beside it.
void apply_significance(CompareReport& report, const std::vector<PassCase>& judged,
                        const std::vector<std::size_t>& at, double threshold) {
  const std::size_t m = report.baseline_passes, k = report.current_passes;
  if (judged.empty() || run_orderings(m, k) < kRankOrderings)
    return;  // too few passes: the widening alone decides
  Significance s = comparison_significance(judged, m, k, threshold);
  const auto family = [&](Verdict other, double other_p) {
    std::vector<PassCase> out;
    for (std::size_t i = 0; i < judged.size(); ++i)
      if (!(report.cases[at[i]].verdict == other && other_p <= kComparisonAlpha)) out.push_back(judged[i]);
    return out;
  };
  const std::vector<PassCase> for_slower = family(Verdict::Faster, s.faster_p),
                              for_faster = family(Verdict::Slower, s.slower_p);
  const double slower_p = for_slower.size() == judged.size() || for_slower.empty()
                              ? s.slower_p
                              : comparison_significance(for_slower, m, k, threshold).slower_p;
  const double faster_p = for_faster.size() == judged.size() || for_faster.empty()
                              ? s.faster_p
                              : comparison_significance(for_faster, m, k, threshold).faster_p;
  s.slower_p = slower_p;
  s.faster_p = faster_p;
  report.significance = s;
  for (std::size_t i : at) {
    CaseComparison& c = report.cases[i];
    const double p = c.verdict == Verdict::Slower   ? s.slower_p
                     : c.verdict == Verdict::Faster ? s.faster_p
                                                    : 0;
    if (p <= kComparisonAlpha) continue;
    c.note = printf_string(
        "%s on its own runs, but not over the whole comparison: p = %.3f over %zu labellings of the passes "
        "(needs <= %.3f)",
        std::string(name_of(c.verdict)).c_str(), p, s.labellings, kComparisonAlpha);
    c.verdict = Verdict::Ambiguous;
  }
}

std::vector<SlowerRange> slower_ranges(const std::vector<CaseComparison>& cases) {
  std::vector<SlowerRange> out;
  for (const auto& [series, sizes] : series_sizes(cases)) {
    std::optional<SlowerRange> open;
    for (std::uint64_t bytes : sizes) {
      std::size_t slow = 0;
      for (const auto& c : cases)
        slow += c.verdict == Verdict::Slower && c.bytes == bytes && series_of(c) == series;
      if (slow == 0) {
        if (open) out.push_back(*open);
        open.reset();
        continue;
      }
      if (!open) open = SlowerRange{std::get<0>(series), std::get<1>(series), bytes, bytes, 0};
      open->last_bytes = bytes;
      open->cases += slow;
    }
    if (open) out.push_back(*open);
  }
  return out;
}

std::size_t fewest_runs(const std::vector<CaseComparison>& cases, bool baseline) {
  std::size_t fewest = 0;
  for (const auto& c : cases) {
    if (!c.measured) continue;
    const std::size_t n = (baseline ? c.baseline_runs : c.current_runs).size();
    fewest = fewest == 0 ? n : std::min(fewest, n);
  }
  return fewest;
}

}  // namespace

std::size_t CompareReport::count(Verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [&](const auto& c) { return c.verdict == v; }));
}

bool CompareReport::any_widened() const {
  return std::any_of(cases.begin(), cases.end(), [](const auto& c) { return c.widened; });
}

const CaseComparison* CompareReport::worst_slower() const {
  const CaseComparison* worst = nullptr;
  for (const auto& c : cases) {
    if (c.verdict != Verdict::Slower) continue;
    const double change = c.measured ? c.change : std::numeric_limits<double>::infinity();
    const double best =
        worst == nullptr ? -1 : (worst->measured ? worst->change : std::numeric_limits<double>::infinity());
    if (worst == nullptr || change > best) worst = &c;
  }
  return worst;
}

CompareReport compare_results(const std::vector<const ResultsDocument*>& baselines,
                              const std::vector<std::string>& baseline_origins,
                              const std::vector<const ResultsDocument*>& currents,
                              const std::vector<std::string>& current_origins,
                              const CompareOptions& options) {
  check_options(options);
  if (baselines.empty() || currents.empty())
    throw InputError("compare needs at least one baseline and one current results file");
  std::vector<const ResultsDocument*> all = baselines;
  all.insert(all.end(), currents.begin(), currents.end());
  check_backends(all);
  CompareReport report;
  report.threshold = options.threshold;
  report.run_noise = options.run_noise;
  report.basis = time_basis(all);
  report.baseline_files = baselines.size();
  report.current_files = currents.size();
  report.provenance = provenance_differences(baselines.front()->provenance, currents.front()->provenance);
  note_incomplete(baselines, baseline_origins, "baseline", report.notes);
  note_incomplete(currents, current_origins, "current", report.notes);
  const Side base = gather_side(baselines, baseline_origins, report.basis);
  const Side cur = gather_side(currents, current_origins, report.basis);
  for (const auto* notes : {&base.notes, &cur.notes})
    report.notes.insert(report.notes.end(), notes->begin(), notes->end());
  const RunRule rule{options.threshold, options.run_noise, baselines.size(), currents.size()};
  report.baseline_passes = base.passes;
  report.current_passes = cur.passes;
  std::vector<PassCase> judged;
  std::vector<std::size_t> judged_at;
  for (const auto& [key, b] : base.cases) {
    const auto it = cur.cases.find(key);
    if (it == cur.cases.end()) {
      report.only_in_baseline.push_back(describe(key));
      continue;
    }
    report.cases.push_back(compare_case(key, b, it->second, rule));
    if (report.cases.back().measured) {
      judged.push_back({&b.runs, &it->second.runs, report.cases.back().widened ? options.run_noise : 0});
      judged_at.push_back(report.cases.size() - 1);
    }
  }
  for (const auto& [key, c] : cur.cases)
    if (!base.cases.count(key)) report.only_in_current.push_back(describe(key));
  if (report.cases.empty())
    throw InputError(
        "the results files have no case in common (setting, collective, size, placement, type, op, ranks)");
  apply_significance(report, judged, judged_at, options.threshold);
  demote_lone_sizes(report.cases, Verdict::Slower, rule);
  demote_lone_sizes(report.cases, Verdict::Faster, rule);
  report.slower_ranges = slower_ranges(report.cases);
  report.baseline_runs = fewest_runs(report.cases, true);
  report.current_runs = fewest_runs(report.cases, false);
  return report;
}

CompareReport compare_results(const ResultsDocument& baseline, const ResultsDocument& current,
                              const CompareOptions& options) {
  return compare_results({&baseline}, {"baseline"}, {&current}, {"current"}, options);
}

}  // namespace commtune
