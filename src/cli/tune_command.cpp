#include "cli/tune_command.hpp"

#include <algorithm>
#include <iostream>

#include "core/errors.hpp"
#include "report/recommendation_file.hpp"
#include "report/efficiency_summary.hpp"
#include "report/tune_summary_writer.hpp"
#include "results/launch_merge.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {

void add_tune_command(CLI::App& app, TuneCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("tune", "Pick the settings that beat the default, per collective and size");
  cmd->add_option("results", o.results_paths,
                  "Results JSON of a sweep; several: launches of the same sweep, a winner must beat the default in every run of each")
      ->required();
  cmd->add_option("--out", o.out_path, "Write the recommendation (JSON) here, for `commtune export`");
  cmd->add_flag("--force", o.force, "Replace --out if it exists (never an input, never through a symbolic link)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
  add_tune_flags(*cmd, o.flags);
}

int run_tune_command(const TuneCommandOptions& o) {
  if (!o.out_path.empty()) check_output_path(o.out_path, OutputPolicy{o.force, o.results_paths});  // before any work
  const TuneOptions options = resolve_tune_options(o.flags);
  std::vector<ResultsDocument> launches;
  for (const std::string& path : o.results_paths) {
    if (std::count(o.results_paths.begin(), o.results_paths.end(), path) > 1)
      throw InputError(path + ": given twice (its runs would count twice)");
    launches.push_back(load_results(path));
    require_usable_results(launches.back(), path, o.allow_incomplete);
  }
  const ResultsDocument results = launches.size() == 1 ? launches.front() : merge_launches(launches, o.results_paths);
  if (launches.size() > 1)
    std::cout << "Tuned over " << launches.size() << " launches of the same sweep: a winner must beat the default in every run.\n\n";
  const Recommendation rec = tune(results, options);
  write_tune_summary(rec, std::cout);
  write_efficiency_summary(results, std::cout);
  if (!o.out_path.empty()) {
    write_recommendation_file(o.out_path, to_json(rec), OutputPolicy{o.force, o.results_paths});
    std::cerr << "commtune: recommendation written to " << o.out_path << "\n";
  }
  return 0;
}

}  // namespace commtune
