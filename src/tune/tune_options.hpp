#pragma once
// What the tuner is asked: the practical margin a winner must clear (on top of the measured
// noise floor), the objective for job-wide choices, and how many interleaved rounds the
// finalists get when tuning at the end of a sweep.
#include <cstddef>

#include "measure/decision.hpp"
#include "tune/objective.hpp"

namespace commtune {

struct TuneOptions {
  DecisionRule decision;  // a winner saves at least the margin (measure/decision.hpp)
  Objective objective;
  std::size_t confirm_rounds = 5;  // interleaved re-measure rounds at the end of a sweep
  std::size_t max_finalists = 2;   // per (collective, size), besides the default
};

}  // namespace commtune
