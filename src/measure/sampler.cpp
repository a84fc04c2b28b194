#include "measure/sampler.hpp"

#include <numeric>

namespace commtune {

SampleRun sample_until_stable(BatchTimer& timer, const StoppingRule& rule) {
  if (rule.warmup_iterations > 0) timer.time_batch(rule.warmup_iterations);
  SampleRun run;
  std::size_t longest_batch = 0;
  while (!rule.should_stop(run.samples)) {
    const std::size_t batch = rule.next_batch(run.samples);
    const std::vector<double> times = timer.time_batch(batch);
    if (times.size() > longest_batch) {
      longest_batch = times.size();
      run.pipelined_seconds = std::accumulate(times.begin(), times.end(), 0.0) / static_cast<double>(times.size());
    }
    run.samples.insert(run.samples.end(), times.begin(), times.end());
  }
  return run;
}

}  // namespace commtune
