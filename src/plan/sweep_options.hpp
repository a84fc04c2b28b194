#pragma once
// Everything a sweep is asked to do, before it meets the machine: sizes, collectives, element
// type, op, placements, sampling. Filled from a config file, then overridden by CLI flags.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
#include "core/errors.hpp"
#include "core/types.hpp"
#include "measure/decision.hpp"
#include "measure/stopping_rule.hpp"
#include "plan/groups.hpp"
#include "plan/setting.hpp"
#include "plan/sizes.hpp"

namespace commtune {

// Racing (docs/racing.md): every setting is measured coarsely first, a setting clearly slower
// than the best one at a (collective, size) is dropped there, and the survivors are measured
// again in longer rounds until one is left, the pick is shown within the margin of the rest (an
// indifference zone: tune/race.hpp), or the rounds end. Round r (0-based) samples each case for
// first_fraction * growth^r of the sweep's per-case sampling time (min and max time, or -n's
// iterations); the fractions of 3 rounds add up to 7/16. The race eliminates; the finalists'
// re-measure after it confirms, so the survivors of the last round need not reach the full
// precision: near-equal settings cost 7/16 of an exhaustive case each, not 15/16.
inline constexpr std::size_t kMaxRaceRounds = 16;

struct RaceOptions {
  bool enabled = false;
  std::size_t rounds = 3;  // 1 to kMaxRaceRounds
  double first_fraction = 1.0 / 16;
  double growth = 2;  // >= 1
};

// One size of a training step (`sweep --workload`): measured exactly, on its group spec; `count`:
// times a step runs it (the end-of-sweep tuning weighs it by its share of the step).
struct WorkloadSize {
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  GroupSpec group{};
  double count = 1;
};

struct SweepOptions {
  std::optional<BackendKind> backend;  // none: auto (NCCL where GPUs are visible, else MPI)
  SizeRange sizes;
  std::vector<Collective> collectives{Collective::AllReduce, Collective::AllGather, Collective::Broadcast};
  DataType dtype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;
  int root = 0;
  std::vector<Placement> placements{Placement::OutOfPlace, Placement::InPlace};
  // --groups or the config's "groups": the communicators each case runs on, all at once.
  std::vector<GroupSpec> groups{GroupSpec{}};
  bool check = true;
  StoppingRule stopping;
  std::vector<std::string> only_settings;  // --setting filter; empty: all
  std::size_t repeat = 1;                  // --repeat: runs of the whole plan, each in a rotated case order
  DecisionRule decision;           // --margin or the config's "margin": racing, the re-measure and the tuning
  RaceOptions race;                // off: every case measured to the full precision (--exhaustive)
  std::optional<double> budget_s;  // --budget: the wall time the plan was fitted into (plan/budget_fit)
  // --contend F: a compute load beside the collectives while they are timed, F of the device (a busy
  // memory-bound thread per rank on the host; on a GPU a kernel on F of its SMs); 0: none.
  double contend = 0;
  // Settings of the config left out because they run only on collectives this sweep does not
  // measure (a preset narrowed with --collectives); the plan says so.
  std::vector<std::string> left_out_settings;
  // What the plan says once besides (which of --groups and NCCL_TESTS_SPLIT is used).
  std::vector<std::string> notes{};
  // --workload W.json: these sizes instead of the size range (each collective's on each group spec).
  std::vector<WorkloadSize> workload_sizes{};
  std::string workload_file{};
};

inline constexpr std::size_t kMaxRepeat = 100;

// Throws InputError unless the options can run: a valid size range, sampling within its ranges,
// a non-negative root, collectives and placements each listed once.
void validate_sweep_options(const SweepOptions& options);
void validate(const RaceOptions& race);

// A config file: sweep parameters plus the settings matrix.
struct SweepConfig {
  std::string origin;  // the config file's path; empty without --config
  std::string name;
  std::string description;
  SweepOptions options;
  std::vector<Setting> settings;
  bool groups_given = false;  // the config names its group specs ("groups")
};

}  // namespace commtune

namespace commtune {

// Runs `check` (validation of the settings, the plan); its InputError names the config file first
// ("c.json: setting 'x': ..."), when there is one, since the settings and options come from it.
template <typename Check>
auto in_config(const SweepConfig& config, Check&& check) {
  try {
    return check();
  } catch (const InputError& e) {
    if (config.origin.empty()) throw;
    throw InputError(config.origin + ": " + e.what());
  }
}

}  // namespace commtune
