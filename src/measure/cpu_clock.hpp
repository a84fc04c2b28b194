#pragma once
// The clocks behind a rank's share of the CPU (SampleRun::cpu_share): the calling thread's CPU
// seconds and a monotonic wall clock, read around a timed loop by either backend.
namespace commtune {

// CPU seconds the calling thread has run (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds();

// Monotonic wall seconds from an arbitrary origin (CLOCK_MONOTONIC).
double monotonic_seconds();

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
