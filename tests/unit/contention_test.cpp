// --contend: the host's compute load beside the collectives (measure/contention).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/errors.hpp"
#include "measure/contention.hpp"

namespace commtune {
namespace {

TEST(Contention, AFractionOfTheDeviceIsAboveZeroAndAtMostOne) {
  EXPECT_EQ(parse_contention(0.5, "--contend"), 0.5);
  EXPECT_EQ(parse_contention(1.0, "--contend"), 1.0);
  for (double bad : {0.0, -0.1, 1.01, 1e300})
    EXPECT_THROW(parse_contention(bad, "--contend"), InputError) << bad;
}

// The load streams memory while it lives (its destructor stops and joins its thread).
TEST(Contention, TheLoadStreamsMemoryWhileItLives) {
  CpuContender load(0.5);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(load.bytes_streamed(), 0u);
}

}  // namespace
}  // namespace commtune
