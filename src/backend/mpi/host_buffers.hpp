#pragma once
// The host memory the MPI backend's cases run in, allocated once at the largest size asked for
// and reused by every later case, as OSU's benchmarks and nccl-tests do. A fresh allocation per
// case cost the 2-core VM about a millisecond a case (the kernel faulting in and zeroing new
// pages), paid again by every racing round and re-measure round of a case. Contents are left as
// the last case left them: a case that checks its data fills what it checks first; the rest
// times the same calls on whatever values are there (small integers and their sums: no
// denormals, so no slow float paths).
//
// Each buffer starts on a page boundary, as OSU allocates its own (posix_memalign to the page).
// malloc's 16-byte alignment is not enough: Open MPI copies into the receive buffer (the ring
// all-reduce starts with a copy of the input), and a destination off the 64-byte cache line made
// a 32 KiB all-reduce 15 to 40% slower on the 2-core VM (2026-12-05, docs/measurements.md).
#include <cstddef>
#include <memory>
#include <span>

namespace commtune {

class HostBuffers {
 public:
  static constexpr std::size_t kAlignment = 4096;

  // Spans of exactly `bytes` bytes starting on a kAlignment boundary, valid until the next call
  // that asks for more. New memory is zeroed (every page faulted in before it is timed).
  std::span<std::byte> send(std::size_t bytes) { return send_.grown(bytes); }
  std::span<std::byte> recv(std::size_t bytes) { return recv_.grown(bytes); }

 private:
  struct AlignedFree {
    void operator()(std::byte* p) const;
  };
  class Buffer {
   public:
    std::span<std::byte> grown(std::size_t bytes);

   private:
    std::unique_ptr<std::byte[], AlignedFree> data_;
    std::size_t size_ = 0;
  };

  Buffer send_;
  Buffer recv_;
};

}  // namespace commtune
