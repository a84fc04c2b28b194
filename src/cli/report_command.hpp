#pragma once
// `commtune report FILE... --out report.html`: one self-contained HTML page with the plots of any
// mix of results files, tune recommendations, compare reports (JSON) and doctor reports (JSON),
// each file's kind told from its contents. Every input is read and validated before the output
// is opened; the output follows core/output_file's rules (never over an existing file unless
// --force, never through a symbolic link, never over an input). Like tune, export and compare, an
// interrupted sweep's results (or a recommendation tuned on one) need --allow-incomplete; the page
// then says so. Exit 0, or 2 on bad input.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace commtune {

struct ReportCommandOptions {
  std::vector<std::string> inputs;
  std::string out_path;
  bool force = false;
  bool allow_incomplete = false;  // results of an interrupted sweep, or a recommendation tuned on one
};

void add_report_command(CLI::App& app, ReportCommandOptions& options);
int run_report_command(const ReportCommandOptions& options, int argc, char** argv);

}  // namespace commtune
