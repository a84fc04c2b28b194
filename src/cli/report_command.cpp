#include "cli/commands.hpp"

#include <filesystem>
#include <iostream>
#include <set>

#include "cli/tune_flags.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "report/html_report.hpp"
#include "core/output_file.hpp"
#include "inputs/report_input.hpp"

namespace commtune {
namespace {

void require_complete(const ReportInput& input, bool allow_incomplete) {
  if (const auto* doc = std::get_if<ResultsDocument>(&input.content))
    require_usable_results(*doc, input.path, allow_incomplete);
  const auto* replay = std::get_if<ReplayRecord>(&input.content);
  if (replay && !replay->complete && !allow_incomplete)
    throw InputError(input.path +
                     ": complete: false: an interrupted replay; pass --allow-incomplete to draw it anyway");
  const auto* rec = std::get_if<Recommendation>(&input.content);
  if (rec && rec->incomplete && !allow_incomplete)
    throw InputError(
        input.path +
        ": incomplete: true: tuned on an interrupted sweep; pass --allow-incomplete to draw it anyway");
}

// One file twice would draw its plots twice, under the same element ids.
void check_distinct(const std::vector<std::string>& paths) {
  std::set<std::string> seen;
  for (const auto& p : paths) {
    std::error_code ec;
    const std::string canonical = std::filesystem::weakly_canonical(p, ec).string();
    if (!seen.insert(ec ? p : canonical).second)
      throw InputError("input file " + quote_text(p, 200) + " is given twice");
  }
}

std::string command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) out += (i ? " " : "") + std::string(argv[i]);
  return out;
}

}  // namespace

void add_report_command(CLI::App& app, ReportCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("report",
                                     "One self-contained HTML report with the plots of results, "
                                     "recommendations, compare and doctor reports");
  cmd->add_option("files", o.inputs,
                  "Results JSON, RESULTS.tune.json, compare --format json output, doctor --json output")
      ->required();
  cmd->add_option("--out", o.out_path, "The HTML file to write")->required();
  cmd->add_flag("--force", o.force,
                "Replace --out if it exists (never an input, never through a symbolic link)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
}

int run_report_command(const ReportCommandOptions& o, int argc, char** argv) {
  const OutputPolicy policy{o.force, o.inputs};
  check_distinct(o.inputs);
  check_output_path(o.out_path, policy);  // before reading: refuse early
  std::vector<ReportInput> inputs;
  for (const auto& path : o.inputs) {
    inputs.push_back(load_report_input(path));
    require_complete(inputs.back(), o.allow_incomplete);
  }
  write_output_file(o.out_path, html_report(inputs, command_line(argc, argv)), policy);
  std::cerr << "commtune: report written to " << o.out_path << "\n";
  return 0;
}

}  // namespace commtune
