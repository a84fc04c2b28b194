#include "backend/nccl/worker/batch_timing.hpp"

#include <string>

#include "core/errors.hpp"

namespace commtune {

TimedBatch batch_from_marks(std::span<const double> marks, std::size_t block) {
  if (marks.size() < 3)
    throw BackendError("a timed batch needs at least 3 event marks, got " + std::to_string(marks.size()));
  if (block == 0) throw BackendError("a timed batch needs blocks of at least one iteration");
  TimedBatch batch;
  batch.seconds.reserve(marks.size() - 2);
  for (std::size_t i = 2; i < marks.size(); ++i)
    batch.seconds.push_back((marks[i] - marks[i - 1]) / static_cast<double>(block));
  batch.loop_seconds = marks.back() - marks[1];
  return batch;
}

TimedBatch batch_from_graph(double graph_seconds, std::size_t iterations) {
  if (iterations == 0) throw BackendError("a timed graph needs at least one iteration");
  return TimedBatch{{graph_seconds / static_cast<double>(iterations)}, graph_seconds};
}

}  // namespace commtune
