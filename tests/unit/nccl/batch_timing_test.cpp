// The worker's timed batch from event marks: the first interval dropped, the graph as one mean.
#include <gtest/gtest.h>

#include <vector>

#include "backend/nccl/worker/batch_timing.hpp"
#include "backend/nccl/worker/buffer_slots.hpp"
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

namespace commtune {
namespace {

// One event per block: blocks of 4 iterations of 1, 1.25 and 1.5 s each after the dropped first one.
TEST(BatchTiming, BlocksAreTimedAsOneIntervalEach) {
  EXPECT_EQ(events_for(12, 4), 5u);  // barrier, first iteration, three blocks
  const std::vector<double> marks{0.0, 9.0, 13.0, 18.0, 24.0};
  const TimedBatch batch = batch_from_marks(marks, 4);
  EXPECT_EQ(batch.seconds, (std::vector<double>{1.0, 1.25, 1.5}));
  EXPECT_DOUBLE_EQ(batch.loop_seconds, 15.0);
  EXPECT_THROW(batch_from_marks(marks, 0), BackendError);
}

// Graph mode keeps its buffers from case to case: one allocation per slot for a sweep whose sizes
// grow up to the planned largest one, a new one only past it.
TEST(BufferSlots, OneAllocationPerSlotUpToTheLargestCase) {
  BufferSlots slots;
  int allocations = 0;
  for (std::size_t bytes = 8; bytes <= (std::size_t{1} << 20); bytes *= 2)
    if (slots.grow(BufferSlot::Recv, bytes, std::size_t{1} << 20)) ++allocations;
  EXPECT_EQ(allocations, 1);
  EXPECT_EQ(slots.capacity(BufferSlot::Recv), std::size_t{1} << 20);
  EXPECT_FALSE(slots.grow(BufferSlot::Recv, 4096, 0));
  EXPECT_EQ(slots.grow(BufferSlot::Recv, (std::size_t{1} << 20) + 1, 0),
            (std::size_t{1} << 20) + 1);              // past the plan
  EXPECT_EQ(slots.grow(BufferSlot::Send, 0, 0), 1u);  // an empty slot still gets an address
  EXPECT_EQ(slots.capacity(BufferSlot::Scratch), 0u);
}

}  // namespace
}  // namespace commtune
