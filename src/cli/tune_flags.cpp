#include "cli/tune_flags.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "workload/workload.hpp"

namespace commtune {

void add_tune_flags(CLI::App& command, TuneFlags& flags) {
  command.add_option(
      "--margin", flags.margin,
      "Least time a winner must save, between the near ends of the median intervals, as a fraction in "
      "[0, 1) (default: the sweep's --margin, else 0.02)");
  command.add_option("--objective-sizes", flags.objective_sizes,
                     "Sizes job-wide choices are judged on, MIN:MAX (default 64K:, i.e. 64 KiB and up)");
  command.add_option("--weight", flags.weights,
                     "Weight of a collective in the objective, COLLECTIVE=W (default 1 each; repeatable)");
  command.add_option(
      "--workload", flags.workload,
      "Judge job-wide choices on this workload's step (commtune workload): each of its sizes by "
      "its share of the step's time under the default; the summary says the step's expected change");
}

void add_allow_incomplete_flag(CLI::App& command, bool& allow) {
  command.add_flag(
      "--allow-incomplete", allow,
      "Accept an interrupted sweep (\"complete\": false): use its finished cases; every output says so");
}

namespace {

// Runs `parse`; its InputError names the flag when it does not already.
template <typename Parse>
void for_flag(const std::string& flag, Parse&& parse) {
  try {
    parse();
  } catch (const InputError& e) {
    const std::string text = e.what();
    throw InputError(text.rfind(flag, 0) == 0 ? text : flag + ": " + text);
  }
}

}  // namespace

TuneOptions resolve_tune_options(const TuneFlags& flags, const ResultsDocument& results) {
  TuneOptions options;
  if (flags.margin)
    options.decision = decision_rule(*flags.margin, "--margin");
  else if (results.decision)
    options.decision = *results.decision;
  if (!flags.objective_sizes.empty())
    for_flag("--objective-sizes", [&] { parse_objective_range(flags.objective_sizes, options.objective); });
  for (const auto& w : flags.weights)
    for_flag("--weight", [&] { parse_objective_weight(w, options.objective); });
  if (flags.workload.empty()) return options;
  if (!flags.objective_sizes.empty() || !flags.weights.empty())
    throw InputError(
        "--workload: the step weighs every size itself; leave out --objective-sizes and --weight");
  const Workload workload = read_workload_file(flags.workload);
  for (const WorkloadCollective& c : workload.collectives)
    options.objective.step.push_back(ObjectiveCall{.collective = c.collective,
                                                   .bytes = c.bytes,
                                                   .group = c.group.name(),
                                                   .count = static_cast<double>(c.count)});
  options.objective.step_origin = flags.workload;
  return options;
}

}  // namespace commtune
