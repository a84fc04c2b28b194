#include "cli/tune_flags.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace commtune {

void add_tune_flags(CLI::App& command, TuneFlags& flags) {
  command.add_option("--margin", flags.margin, "Least time a winner must save, as a fraction (default 0.02; the noise floor applies if larger)");
  command.add_option("--objective-sizes", flags.objective_sizes, "Sizes job-wide choices are judged on, MIN:MAX (default 64K:, i.e. 64 KiB and up)");
  command.add_option("--weight", flags.weights, "Weight of a collective in the objective, COLLECTIVE=W (default 1 each; repeatable)");
}

TuneOptions resolve_tune_options(const TuneFlags& flags) {
  TuneOptions options;
  if (!(flags.margin >= 0 && flags.margin < 1) || !std::isfinite(flags.margin))
    throw InputError("--margin must be a fraction in [0, 1), e.g. 0.02");
  options.min_margin = flags.margin;
  if (!flags.objective_sizes.empty()) parse_objective_range(flags.objective_sizes, options.objective);
  for (const auto& w : flags.weights) parse_objective_weight(w, options.objective);
  return options;
}

}  // namespace commtune
