#include "plan/sweep_options.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "plan/duration.hpp"

namespace commtune {
namespace {

template <typename Enum>
void require_once_each(const std::vector<Enum>& values, const char* what) {
  for (auto it = values.begin(); it != values.end(); ++it)
    if (std::find(values.begin(), it, *it) != it)
      throw InputError(std::string(what) + ": " + std::string(name_of(*it)) + " is listed twice");
}

}  // namespace

void validate_sweep_options(const SweepOptions& options) {
  validate(options.sizes);
  options.stopping.validate();
  if (options.collectives.empty()) throw InputError("no collectives to run (--collectives / collectives)");
  require_once_each(options.collectives, "collectives (--collectives / collectives)");
  if (options.placements.empty()) throw InputError("no placements (in-place / out-of-place) to run");
  require_once_each(options.placements, "placements (--placement / placements)");
  if (options.groups.empty()) throw InputError("no group spec to run (--groups / groups)");
  require_once_each(options.groups, "group specs (--groups / groups)");
  if (options.root < 0) throw InputError("root (-r / root) must be a rank, 0 or more");
  if (options.repeat < 1 || options.repeat > kMaxRepeat)
    throw InputError("--repeat must be from 1 to " + std::to_string(kMaxRepeat) + " runs");
  validate(options.race);
  if (options.budget_s && !(*options.budget_s > 0 && *options.budget_s <= kMaxDurationSeconds))
    throw InputError("--budget must be above 0 and at most a week");
}

void validate(const RaceOptions& race) {
  if (!race.enabled) return;
  if (race.rounds < 1 || race.rounds > kMaxRaceRounds)
    throw InputError("racing: rounds must be from 1 to " + std::to_string(kMaxRaceRounds));
  if (!(race.first_fraction > 0 && race.first_fraction <= 1))
    throw InputError("racing: the first round's fraction of the sampling time must be in (0, 1]");
  if (!(race.growth >= 1 && race.growth <= 16))
    throw InputError("racing: the growth per round must be from 1 to 16");
}

}  // namespace commtune
