#include "cli/compare_command.hpp"

#include <iostream>

#include "core/errors.hpp"
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

}  // namespace

void add_compare_command(CLI::App& app, CompareCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("compare", "Compare two results files: FASTER / SLOWER / SAME / AMBIGUOUS per case");
  cmd->add_option("baseline", o.baseline_path, "Baseline results JSON")->required();
  cmd->add_option("current", o.current_path, "Current results JSON")->required();
  cmd->add_option("--threshold", o.threshold, "Smallest change that counts, as a fraction (default 0.05)");
  cmd->add_option("--format", o.format, "markdown (default) or json");
  cmd->add_option("--out", o.out_path, "Write the report here (default: stdout)");
  cmd->add_flag("--force", o.force, "Replace --out if it exists (never an input, never through a symbolic link)");
}

int run_compare_command(const CompareCommandOptions& o) {
  const OutputPolicy policy{o.force, {o.baseline_path, o.current_path}};
  if (!o.out_path.empty()) check_output_path(o.out_path, policy);  // before any work
  const CompareReport report =
      compare_results(load_results(o.baseline_path), load_results(o.current_path), o.threshold);
  emit_output(o.out_path, policy, [&](std::ostream& out) { render(report, o.format, out); });
  return report.regression() ? 1 : 0;
}

}  // namespace commtune
