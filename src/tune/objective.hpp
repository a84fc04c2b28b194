#pragma once
// The objective a job-wide choice is made on: which sizes matter (a byte range) and how much
// each collective weighs. Default: sizes from 64 KiB up (the bandwidth-bound range where
// training jobs spend their communication time), every collective weight 1. When no measured
// size falls in the range, the tuner widens it to every measured size and says so.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace commtune {

// One call of a training step the job-wide choices are judged on (`tune --workload`): its case and
// how many times a step runs it.
struct ObjectiveCall {
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  std::string group = "world";  // GroupSpec::name()
  double count = 1;
};

struct Objective {
  // With a workload, the step's calls: each measured size weighs by its share of the step's
  // communication time under the default, and a setting's score is the expected change of that
  // time (tune/step_objective); the byte range and the weights below are then not used.
  std::vector<ObjectiveCall> step;
  std::string step_origin;  // the workload file
  std::uint64_t min_bytes = 64 * 1024;
  std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max();
  std::map<Collective, double> weights;  // missing: 1

  double weight(Collective c) const;
  bool covers(std::uint64_t bytes) const { return bytes >= min_bytes && bytes <= max_bytes; }
  std::string describe() const;  // one line for the summary
};

// "64K:1G", "1M:" (no upper bound), ":4M". Throws InputError.
void parse_objective_range(std::string_view text, Objective& objective);
// "allreduce=3". Throws InputError.
void parse_objective_weight(std::string_view text, Objective& objective);

}  // namespace commtune
