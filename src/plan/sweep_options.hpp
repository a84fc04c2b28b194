#pragma once
// Everything a sweep is asked to do, before it meets the machine: sizes, collectives, element
// type, op, placements, sampling. Filled from a config file, then overridden by CLI flags.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/types.hpp"
#include "measure/stopping_rule.hpp"
#include "plan/setting.hpp"
#include "plan/sizes.hpp"

namespace commtune {

struct SweepOptions {
  std::string backend = "auto";  // auto | mpi | nccl
  SizeRange sizes;
  std::vector<Collective> collectives{Collective::AllReduce, Collective::AllGather, Collective::Broadcast};
  DataType dtype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;
  int root = 0;
  std::vector<Placement> placements{Placement::OutOfPlace, Placement::InPlace};
  bool check = true;
  StoppingRule stopping;
  std::vector<std::string> only_settings;  // --setting filter; empty: all
  std::size_t repeat = 1;  // --repeat: runs of the whole plan, each in a rotated case order
};

inline constexpr std::size_t kMaxRepeat = 100;

// Throws InputError unless the options can run: a valid size range, sampling within its ranges,
// a backend auto|mpi|nccl, a non-negative root, collectives and placements each listed once.
void validate_sweep_options(const SweepOptions& options);

// A config file: sweep parameters plus the settings matrix.
struct SweepConfig {
  std::string origin;  // the config file's path; empty without --config
  std::string name;
  std::string description;
  SweepOptions options;
  std::vector<Setting> settings;
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
