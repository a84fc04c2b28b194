#include "cli/commands.hpp"

#include <algorithm>
#include <iostream>

#include "core/errors.hpp"
#include "exports/recommendation_file.hpp"
#include "writers/efficiency_summary.hpp"
#include "writers/tune_summary_writer.hpp"
#include "results/launch_merge.hpp"
#include "results/results_document.hpp"
#include "results/results_input.hpp"
#include "tune/nccl_tests_settings.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {

void add_tune_command(CLI::App& app, TuneCommandOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("tune", "Pick the settings that beat the default, per collective and size");
  cmd->add_option("results", o.results_paths,
                  "Results JSON of a sweep; several: launches of the same sweep, a winner must beat the "
                  "default in every run of each; or nccl-tests -J files, one setting per set of forced NCCL "
                  "knobs (docs/tuning.md)")
      ->required();
  cmd->add_option("--out", o.out_path, "Write the recommendation (JSON) here, for `commtune export`");
  cmd->add_flag("--force", o.force,
                "Replace --out if it exists (never an input, never through a symbolic link)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
  add_tune_flags(*cmd, o.flags);
}

namespace {

// nccl-tests files: one setting per set of forced NCCL knobs (tune/nccl_tests_settings); commtune
// results files: launches of the same sweep. Not both.
ResultsDocument tuned_document(const std::vector<ResultsDocument>& files,
                               const std::vector<std::string>& paths) {
  const auto nccl_tests =
      static_cast<std::size_t>(std::count_if(files.begin(), files.end(), from_nccl_tests));
  if (nccl_tests > 0 && nccl_tests < files.size())
    throw InputError(
        "tune: nccl-tests files and commtune results files cannot be tuned together; tune each kind on its "
        "own");
  if (nccl_tests > 0) {
    const NcclTestsSweep sweep = nccl_tests_sweep(files, paths);
    for (const auto& note : sweep.notes) std::cerr << "commtune: " << note << "\n";
    std::cout << "Tuned over " << files.size() << " nccl-tests files as " << sweep.document.settings.size()
              << " settings (their forced NCCL knobs), on nccl-tests' time.\n\n";
    return sweep.document;
  }
  if (files.size() == 1) return files.front();
  ResultsDocument merged = merge_launches(files, paths);  // refused before anything is printed
  std::cout << "Tuned over " << files.size()
            << " launches of the same sweep: a winner must beat the default in every run.\n\n";
  return merged;
}

}  // namespace

int run_tune_command(const TuneCommandOptions& o) {
  if (!o.out_path.empty())
    check_output_path(o.out_path, OutputPolicy{o.force, o.results_paths});  // before any work
  resolve_tune_options(o.flags, ResultsDocument{});  // bad flags are refused before any file is read
  std::vector<ResultsDocument> launches;
  for (const std::string& path : o.results_paths) {
    if (std::count(o.results_paths.begin(), o.results_paths.end(), path) > 1)
      throw InputError(path + ": given twice (its runs would count twice)");
    launches.push_back(load_any_results(path));
    require_usable_results(launches.back(), path, o.allow_incomplete);
  }
  const ResultsDocument results = tuned_document(launches, o.results_paths);
  const Recommendation rec = tune(results, resolve_tune_options(o.flags, results));
  write_tune_summary(rec, std::cout);
  write_efficiency_summary(results, std::cout);
  if (!o.out_path.empty()) {
    write_recommendation_file(o.out_path, to_json(rec), OutputPolicy{o.force, o.results_paths});
    std::cerr << "commtune: recommendation written to " << o.out_path << "\n";
  }
  return 0;
}

}  // namespace commtune
