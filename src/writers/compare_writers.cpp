#include "writers/compare_writers.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/text_format.hpp"
#include "plan/sizes.hpp"
#include "results/results_json.hpp"
#include "tune/compared_case.hpp"

namespace commtune {
namespace {

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : (c == '\n' ? std::string(" ") : std::string(1, c));
  return out;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A side as judged: the median of its runs and their range (one run: its median's interval).
std::string side_text(const std::vector<double>& runs, const SampleStats& first) {
  if (runs.empty()) return "--";
  const auto [low, high] = std::minmax_element(runs.begin(), runs.end());
  if (runs.size() == 1 && first.count > 0)
    return printf_string("%.2f [%.2f, %.2f]", runs.front(), first.median_ci_low, first.median_ci_high);
  return printf_string("%.2f [%.2f, %.2f]", median_of(runs), *low, *high);
}

std::string change_text(const CaseComparison& c) {
  if (!c.measured) return "--";
  return printf_string("%+.1f%% [%+.1f%%, %+.1f%%]", c.change * 100, c.change_low * 100, c.change_high * 100);
}

std::string range_text(const SlowerRange& r) {
  const std::string sizes = r.first_bytes == r.last_bytes
                                ? format_size(r.first_bytes)
                                : format_size(r.first_bytes) + ".." + format_size(r.last_bytes);
  return r.setting + " " + std::string(name_of(r.collective)) + " " + sizes;
}

std::string case_text(const CaseComparison& c) {
  return c.setting + " " + std::string(name_of(c.collective)) + " " + format_size(c.bytes) + " " +
         std::string(name_of(c.placement));
}

void write_provenance(const CompareReport& report, std::ostream& out) {
  out << "## What changed between the runs\n\n";
  if (report.provenance.empty()) {
    out << "No provenance differences (same versions, hosts, ranks and environment).\n\n";
    return;
  }
  out << "| field | baseline | current |\n|---|---|---|\n";
  for (const auto& d : report.provenance)
    out << "| " << cell(d.field) << " | " << cell(d.baseline) << " | " << cell(d.current) << " |\n";
  out << "\n";
}

void write_rule(const CompareReport& report, std::ostream& out) {
  out << "Threshold " << format_percent(report.threshold) << ", judged on the spread between runs of "
      << name_of(report.basis)
      << ": SLOWER when every current run is slower than the slowest baseline run by more than the "
         "threshold, FASTER "
         "the mirror image, SAME when the medians of the runs differ by less, AMBIGUOUS otherwise; a lone "
         "SLOWER size "
         "needs its whole change interval beyond "
      << printf_string("%.0fx", kLoneSizeFactor) << " the threshold.\n\n"
      << "Baseline: " << report.baseline_files << " file(s), " << report.baseline_runs
      << " run(s) per case; current: " << report.current_files << " file(s), " << report.current_runs
      << " run(s) per case.\n\n";
  if (report.any_widened())
    out << "Too few runs to judge by their spread alone ("
        << (report.baseline_runs <= 1 ? "a single-run baseline"
                                      : "fewer than " + printf_string("%.0f", kRankOrderings) +
                                            " orderings of baseline and current runs")
        << "): the baseline's range is widened by the default between-run noise of "
        << format_percent(report.run_noise)
        << " (--run-noise), so a change inside that noise is AMBIGUOUS, not SLOWER. Run `commtune sweep "
           "--repeat 4` (or "
           "more) for both sides.\n\n";
  if (report.significance) {
    const Significance& g = *report.significance;
    out << "Over the whole comparison (its " << report.baseline_passes << " baseline and "
        << report.current_passes << " current passes relabelled in " << (g.exact ? "all " : "a sample of ")
        << g.labellings << " ways): SLOWER p = " << printf_string("%.3f", g.slower_p)
        << ", FASTER p = " << printf_string("%.3f", g.faster_p)
        << "; a case keeps SLOWER or FASTER only at p <= " << printf_string("%.3f", kComparisonAlpha)
        << printf_string(" (the least these passes can give: %.3f).\n\n", g.least_p);
  }
}

}  // namespace

std::string compare_summary_line(const CompareReport& report) {
  std::string line = "commtune compare: ";
  if (report.regression()) {
    line += "REGRESSION: " + std::to_string(report.count(Verdict::Slower)) + " case(s) SLOWER in ";
    for (std::size_t i = 0; i < report.slower_ranges.size(); ++i)
      line += (i ? ", " : "") + range_text(report.slower_ranges[i]);
    const CaseComparison* worst = report.worst_slower();
    line += "; worst " + case_text(*worst) + " " + (worst->measured ? change_text(*worst) : worst->note);
  } else {
    line += "no case SLOWER";
  }
  line +=
      "; " + std::to_string(report.count(Verdict::Faster)) + " faster, " +
      std::to_string(report.count(Verdict::Same)) + " same, " +
      std::to_string(report.count(Verdict::Ambiguous)) + " ambiguous (threshold " +
      format_percent(report.threshold) + ", runs " + std::to_string(report.baseline_runs) + " vs " +
      std::to_string(report.current_runs) +
      (report.any_widened() ? ", widened by the default run noise " + format_percent(report.run_noise) : "") +
      (report.significance ? printf_string(", p = %.3f over %zu labellings of the passes",
                                           report.significance->slower_p, report.significance->labellings)
                           : std::string()) +
      ")";
  return line;
}

void write_compare_markdown(const CompareReport& report, std::ostream& out) {
  out << "# commtune compare\n\n";
  for (const auto& note : report.notes) out << "Note: " << cell(note) << "\n\n";
  write_provenance(report, out);
  out << "## Cases\n\n";
  write_rule(report, out);
  out << "| setting | collective | size | placement | baseline us [range] | current us [range] | runs | "
         "change [interval] | verdict |\n"
      << "|---|---|---:|---|---:|---:|---:|---:|---|\n";
  for (const auto& c : report.cases)
    out << "| " << c.setting << " | " << name_of(c.collective) << " | " << format_size(c.bytes) << " | "
        << name_of(c.placement) << " | " << side_text(c.baseline_runs, c.baseline) << " | "
        << side_text(c.current_runs, c.current) << " | " << c.baseline_runs.size() << "/"
        << c.current_runs.size() << " | " << change_text(c) << " | " << name_of(c.verdict)
        << (c.note.empty() ? "" : " (" + cell(c.note) + ")") << " |\n";
  out << "\n**" << report.count(Verdict::Slower) << " slower, " << report.count(Verdict::Faster)
      << " faster, " << report.count(Verdict::Same) << " same, " << report.count(Verdict::Ambiguous)
      << " ambiguous**" << (report.regression() ? " - REGRESSION\n" : "\n");
  for (const auto& r : report.slower_ranges)
    out << "- SLOWER: " << range_text(r) << " (" << r.cases << " case(s))\n";
  for (const auto& k : report.only_in_baseline) out << "- only in baseline: " << k << "\n";
  for (const auto& k : report.only_in_current) out << "- only in current: " << k << "\n";
  out << "\n" << compare_summary_line(report) << "\n";
}

void write_compare_json(const CompareReport& report, std::ostream& out) {
  using nlohmann::json;
  json provenance = json::array(), cases = json::array(), ranges = json::array();
  for (const auto& d : report.provenance)
    provenance.push_back({{"field", d.field}, {"baseline", d.baseline}, {"current", d.current}});
  for (const auto& c : report.cases) cases.push_back(to_json(compared_case_of(c)));
  for (const auto& r : report.slower_ranges)
    ranges.push_back({{"setting", r.setting},
                      {"collective", name_of(r.collective)},
                      {"first_bytes", r.first_bytes},
                      {"last_bytes", r.last_bytes},
                      {"cases", r.cases}});
  json doc{{"kind", "commtune-compare"},
           {"threshold", report.threshold},
           {"run_noise", report.run_noise},
           {"time", report.basis == TimeBasis::Median ? "median" : "nccl-tests"},
           {"baseline_files", report.baseline_files},
           {"current_files", report.current_files},
           {"baseline_runs", report.baseline_runs},
           {"current_runs", report.current_runs},
           {"regression", report.regression()},
           {"counts",
            {{"FASTER", report.count(Verdict::Faster)},
             {"SLOWER", report.count(Verdict::Slower)},
             {"SAME", report.count(Verdict::Same)},
             {"AMBIGUOUS", report.count(Verdict::Ambiguous)}}},
           {"slower_ranges", ranges},
           {"summary", compare_summary_line(report)},
           {"provenance_differences", provenance},
           {"cases", cases},
           {"only_in_baseline", report.only_in_baseline},
           {"only_in_current", report.only_in_current}};
  if (!report.notes.empty()) doc["notes"] = report.notes;
  if (const auto& g = report.significance)
    doc["significance"] = {{"slower_p", g->slower_p},
                           {"faster_p", g->faster_p},
                           {"least_p", g->least_p},
                           {"labellings", g->labellings},
                           {"exact", g->exact},
                           {"alpha", kComparisonAlpha},
                           {"baseline_passes", report.baseline_passes},
                           {"current_passes", report.current_passes}};
  out << doc.dump(2) << "\n";
}

}  // namespace commtune
