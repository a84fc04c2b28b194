#include "report/compare_writers.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/text_format.hpp"
#include "plan/sizes.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : (c == '\n' ? std::string(" ") : std::string(1, c));
  return out;
}

std::string interval(const SampleStats& s) {
  if (s.count == 0) return "--";
  return printf_string("%.2f [%.2f, %.2f]", s.median, s.median_ci_low, s.median_ci_high);
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

}  // namespace

void write_compare_markdown(const CompareReport& report, std::ostream& out) {
  out << "# commtune compare\n\n";
  for (const auto& note : report.notes) out << "Note: " << cell(note) << "\n\n";
  write_provenance(report, out);
  out << "## Cases\n\n"
      << printf_string("Threshold %.1f%%: FASTER/SLOWER need disjoint median CIs and a change beyond it; AMBIGUOUS: a "
                "large change inside the noise.\n\n",
                report.threshold * 100.0);
  out << "| setting | collective | size | placement | baseline us (95% CI) | current us (95% CI) | change | verdict |\n"
      << "|---|---|---:|---|---:|---:|---:|---|\n";
  for (const auto& c : report.cases)
    out << "| " << c.setting << " | " << name_of(c.collective) << " | " << format_size(c.bytes) << " | "
        << name_of(c.placement) << " | " << interval(c.baseline) << " | " << interval(c.current) << " | "
        << printf_string("%+.1f%%", c.change * 100.0) << " | " << name_of(c.verdict) << (c.note.empty() ? "" : " (" + cell(c.note) + ")")
        << " |\n";
  out << "\n**" << report.count(Verdict::Slower) << " slower, " << report.count(Verdict::Faster) << " faster, "
      << report.count(Verdict::Same) << " same, " << report.count(Verdict::Ambiguous) << " ambiguous**"
      << (report.regression() ? " - REGRESSION\n" : "\n");
  for (const auto& k : report.only_in_baseline) out << "- only in baseline: " << k << "\n";
  for (const auto& k : report.only_in_current) out << "- only in current: " << k << "\n";
}

void write_compare_json(const CompareReport& report, std::ostream& out) {
  using nlohmann::json;
  json provenance = json::array(), cases = json::array();
  for (const auto& d : report.provenance)
    provenance.push_back({{"field", d.field}, {"baseline", d.baseline}, {"current", d.current}});
  for (const auto& c : report.cases)
    cases.push_back({{"setting", c.setting}, {"collective", name_of(c.collective)}, {"bytes", c.bytes},
                     {"placement", name_of(c.placement)}, {"verdict", name_of(c.verdict)}, {"change", c.change},
                     {"baseline", to_json(c.baseline)}, {"current", to_json(c.current)}, {"note", c.note}});
  json doc{{"kind", "commtune-compare"}, {"threshold", report.threshold}, {"regression", report.regression()},
                 {"counts", {{"FASTER", report.count(Verdict::Faster)}, {"SLOWER", report.count(Verdict::Slower)},
                             {"SAME", report.count(Verdict::Same)}, {"AMBIGUOUS", report.count(Verdict::Ambiguous)}}},
                 {"provenance_differences", provenance}, {"cases", cases},
                 {"only_in_baseline", report.only_in_baseline}, {"only_in_current", report.only_in_current}};
  if (!report.notes.empty()) doc["notes"] = report.notes;
  out << doc.dump(2) << "\n";
}

}  // namespace commtune
