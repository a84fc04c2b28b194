#include "measure/cpu_clock.hpp"

#include <ctime>

namespace commtune {
namespace {

double read_clock(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

double thread_cpu_seconds() { return read_clock(CLOCK_THREAD_CPUTIME_ID); }

double monotonic_seconds() { return read_clock(CLOCK_MONOTONIC); }

}  // namespace commtune
