#include "cli/compare_command.hpp"

#include <iostream>

#include "cli/tune_flags.hpp"
#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/message_text.hpp"
#include "report/compare_writers.hpp"
#include "report/output_file.hpp"
#include "results/results_document.hpp"
#include "tune/regression_compare.hpp"

namespace commtune {
namespace {

void render(const CompareReport& report, const std::string& format, std::ostream& out) {
  if (format == "markdown" || format == "md") write_compare_markdown(report, out);
  else if (format == "json") write_compare_json(report, out);
  else throw InputError("unknown --format '" + format + "' (markdown, json)");
}

// Flags first: a wrong flag is refused before any input is read or output opened.
void check_flags(const CompareCommandOptions& o) {
  if (o.format != "markdown" && o.format != "md" && o.format != "json")
    throw InputError("unknown --format " + quote_text(o.format) + " (markdown, json)");
  if (!(o.threshold >= 0 && o.threshold <= 10))
    throw InputError("--threshold must be a fraction from 0 to 10 (e.g. 0.05 for 5%)");
}

ResultsDocument load_side(const std::string& path, bool allow_incomplete) {
  ResultsDocument doc = load_results(path);
  require_usable_results(doc, path, allow_incomplete);
  return doc;
}

}  // namespace

void add_compare_command(CLI::App& app, CompareCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("compare", "Compare two results files: FASTER / SLOWER / SAME / AMBIGUOUS per case");
  cmd->add_option("baseline", o.baseline_path, "Baseline results JSON")->required();
  cmd->add_option("current", o.current_path, "Current results JSON")->required();
  cmd->add_option("--threshold", o.threshold, "Smallest change that counts, as a fraction (default 0.05)");
  cmd->add_option("--format", o.format, "markdown (default) or json");
  cmd->add_option("--out", o.out_path, "Write the report here (default: stdout)");
  cmd->add_flag("--force", o.force, "Replace --out if it exists (never an input, never through a symbolic link)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
}

int run_compare_command(const CompareCommandOptions& o) {
  check_flags(o);
  const OutputPolicy policy{o.force, {o.baseline_path, o.current_path}};
  if (!o.out_path.empty()) check_output_path(o.out_path, policy);  // before any work
  const ResultsDocument baseline = load_side(o.baseline_path, o.allow_incomplete);
  const ResultsDocument current = load_side(o.current_path, o.allow_incomplete);
  const CompareReport report = parsed_at(o.baseline_path + " vs " + o.current_path,
                                         [&] { return compare_results(baseline, current, o.threshold); });
  emit_output(o.out_path, policy, [&](std::ostream& out) { render(report, o.format, out); });
  return report.regression() ? 1 : 0;
}

}  // namespace commtune
