#pragma once
// The clocks behind a rank's share of the CPU (SampleRun::cpu_share): the calling thread's CPU
// seconds and a monotonic wall clock, read around a timed loop by either backend.
#include <ctime>

namespace commtune {

inline double read_clock_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// CPU seconds the calling thread has run (CLOCK_THREAD_CPUTIME_ID).
inline double thread_cpu_seconds() { return read_clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

// Monotonic wall seconds from an arbitrary origin (CLOCK_MONOTONIC).
inline double monotonic_seconds() { return read_clock_seconds(CLOCK_MONOTONIC); }

// A timed loop's CPU and wall seconds on this thread: started on construction, read by elapsed().
class LoopCpuClock {
 public:
  struct Elapsed {
    double cpu_s = 0, wall_s = 0;
  };
  LoopCpuClock() : cpu_(thread_cpu_seconds()), wall_(monotonic_seconds()) {}
  Elapsed elapsed() const { return Elapsed{thread_cpu_seconds() - cpu_, monotonic_seconds() - wall_}; }

 private:
  double cpu_, wall_;
};

}  // namespace commtune
