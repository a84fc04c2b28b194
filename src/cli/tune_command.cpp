#include "cli/tune_command.hpp"

#include <iostream>

#include "core/errors.hpp"
#include "report/recommendation_file.hpp"
#include "report/efficiency_summary.hpp"
#include "report/tune_summary_writer.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {

void add_tune_command(CLI::App& app, TuneCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("tune", "Pick the settings that beat the default, per collective and size");
  cmd->add_option("results", o.results_path, "Results JSON of a sweep")->required();
  cmd->add_option("--out", o.out_path, "Write the recommendation (JSON) here, for `commtune export`");
  cmd->add_flag("--force", o.force, "Replace --out if it exists (never an input, never through a symbolic link)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
  add_tune_flags(*cmd, o.flags);
}

int run_tune_command(const TuneCommandOptions& o) {
  if (!o.out_path.empty()) check_output_path(o.out_path, OutputPolicy{o.force, {o.results_path}});  // before any work
  const TuneOptions options = resolve_tune_options(o.flags);
  const ResultsDocument results = load_results(o.results_path);
  require_usable_results(results, o.results_path, o.allow_incomplete);
  const Recommendation rec = tune(results, options);
  write_tune_summary(rec, std::cout);
  write_efficiency_summary(results, std::cout);
  if (!o.out_path.empty()) {
    write_recommendation_file(o.out_path, to_json(rec), OutputPolicy{o.force, {o.results_path}});
    std::cerr << "commtune: recommendation written to " << o.out_path << "\n";
  }
  return 0;
}

}  // namespace commtune
