#pragma once
// A compute load beside the collectives (`--contend F`, issue 28): training overlaps its
// collectives with compute, and a setting that wins alone can lose under it. On the host, a busy
// thread per rank that streams through a buffer larger than the caches (memory-bound work, as an
// optimizer step or a data loader is) for F of every millisecond, and sleeps the rest.
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace commtune {

// The fraction of the device a load takes: (0, 1]. Throws InputError naming `input` otherwise.
double parse_contention(double fraction, const char* input);

class CpuContender {
 public:
  // Starts the load at once; `fraction` in (0, 1].
  explicit CpuContender(double fraction);
  // Stops the load and waits for its thread.
  ~CpuContender();
  CpuContender(const CpuContender&) = delete;
  CpuContender& operator=(const CpuContender&) = delete;
  // Bytes streamed so far (a test's evidence that the load ran).
  std::uint64_t bytes_streamed() const { return streamed_.load(); }

 private:
  void run();
  double fraction_;
  std::vector<std::uint64_t> buffer_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> streamed_{0};
  std::thread thread_;
};

}  // namespace commtune
