// The worker's timed batch from event marks: the first interval dropped, the graph as one mean.
#include <gtest/gtest.h>

#include <vector>

#include "backend/nccl/worker/batch_timing.hpp"
#include "core/errors.hpp"

namespace commtune {
namespace {

TEST(BatchTiming, ABatchRunsOneIterationMoreThanItKeeps) { EXPECT_EQ(iterations_to_run(10), 11u); }

TEST(BatchTiming, TheFirstIntervalAfterTheBarrierIsDropped) {
  // Event 0 after the barrier; the first iteration took 9 s (enqueue, skew), the next three 1, 2, 3.
  const std::vector<double> marks{0.0, 9.0, 10.0, 12.0, 15.0};
  const TimedBatch batch = batch_from_marks(marks);
  EXPECT_EQ(batch.seconds, (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_DOUBLE_EQ(batch.loop_seconds, 6.0);  // from the end of the dropped iteration to the last
}

TEST(BatchTiming, OneKeptIterationNeedsThreeMarks) {
  EXPECT_EQ(batch_from_marks(std::vector<double>{0.0, 5.0, 6.5}).seconds, (std::vector<double>{1.5}));
  EXPECT_THROW(batch_from_marks(std::vector<double>{0.0, 5.0}), BackendError);
}

TEST(BatchTiming, AGraphIsOneMeanOverItsIterations) {
  const TimedBatch batch = batch_from_graph(0.02, 400);
  ASSERT_EQ(batch.seconds.size(), 1u);
  EXPECT_DOUBLE_EQ(batch.seconds[0], 5e-5);
  EXPECT_DOUBLE_EQ(batch.loop_seconds, 0.02);
  EXPECT_THROW(batch_from_graph(0.02, 0), BackendError);
}

}  // namespace
}  // namespace commtune
