#pragma once
// The adaptive sampling loop, backend-independent: warm up, then run batches of back-to-back
// iterations until the stopping rule is satisfied. The backend's BatchTimer returns per-iteration
// durations already reduced (max) over ranks, so every rank sees the same samples.
#include <cstddef>
#include <vector>

#include "measure/stopping_rule.hpp"

namespace commtune {

class BatchTimer {
 public:
  virtual ~BatchTimer() = default;
  // Runs `iterations` back to back; returns each iteration's seconds, max over ranks.
  virtual std::vector<double> time_batch(std::size_t iterations) = 0;
};

struct SampleRun {
  std::vector<double> samples;  // seconds per iteration, max over ranks
  double pipelined_seconds = 0; // total / iterations of the longest batch (nccl-tests' figure)
};

SampleRun sample_until_stable(BatchTimer& timer, const StoppingRule& rule);

}  // namespace commtune
