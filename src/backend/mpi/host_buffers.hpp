#pragma once
// The host memory the MPI backend's cases run in, allocated once at the largest size asked for
// and reused by every later case, as OSU's benchmarks and nccl-tests do. A fresh allocation per
// case cost the 2-core VM about a millisecond a case (the kernel faulting in and zeroing new
// pages), paid again by every racing round and re-measure round of a case. Contents are left as
// the last case left them: a case that checks its data fills what it checks first; the rest
// times the same calls on whatever values are there (small integers and their sums: no
// denormals, so no slow float paths).
#include <cstddef>
#include <span>
#include <vector>

namespace commtune {

class HostBuffers {
 public:
  // Spans of exactly `bytes` bytes, valid until the next call that asks for more.
  std::span<std::byte> send(std::size_t bytes) { return grown(send_, bytes); }
  std::span<std::byte> recv(std::size_t bytes) { return grown(recv_, bytes); }

 private:
  static std::span<std::byte> grown(std::vector<std::byte>& buffer, std::size_t bytes);

  std::vector<std::byte> send_;
  std::vector<std::byte> recv_;
};

}  // namespace commtune
