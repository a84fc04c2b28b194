// Ctrl-C / SIGTERM: the first asks to stop; a run that cannot stop (a stuck step) still ends
// when the grace period is over, with 130, so no signal is ever ignored.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "sweep/interrupt.hpp"

namespace commtune {
namespace {

TEST(InterruptWatch, TheFirstSignalAsksToStop) {
  InterruptWatch watch(std::chrono::seconds(30));
  EXPECT_FALSE(watch.requested());
  raise(SIGTERM);
  EXPECT_TRUE(watch.requested());
}

TEST(InterruptWatch, AStuckRunEndsWhenTheGraceIsOver) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    InterruptWatch watch(std::chrono::seconds(1));
    raise(SIGTERM);
    while (true) pause();  // a step that never returns
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_LT(seconds, 20);
}

}  // namespace
}  // namespace commtune
