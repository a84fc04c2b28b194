#pragma once
// Anonymous memory whose pages are all present before anything uses it. Touching a fresh buffer
// page by page takes one page fault per 4 KiB page; on the 2-core development VM (a paravirtual
// guest, where each fault traps to the hypervisor) the two 64 MiB buffers of the host copy
// ceiling cost 0.64 s in one process alone, most of rank 0's start in a sweep of 4 ranks, paid by
// every command before its first case (docs/measurements.md, 2026-12-07). Here the region asks for
// transparent huge pages and has the kernel fill it in one call (MADV_POPULATE_WRITE), which took
// those buffers to 7 to 16 ms. Either request may be refused (huge pages off, an older kernel):
// the memory is then faulted in as before, by whoever writes it first.
#include <cstddef>
#include <span>

namespace commtune {

class PrefaultedMemory {
 public:
  explicit PrefaultedMemory(std::size_t bytes);  // throws std::bad_alloc when none can be mapped
  ~PrefaultedMemory();
  PrefaultedMemory(const PrefaultedMemory&) = delete;
  PrefaultedMemory& operator=(const PrefaultedMemory&) = delete;

  std::span<char> bytes() const { return {data_, size_}; }

 private:
  std::size_t mapped_bytes_;
  char* data_;
  std::size_t size_;
};

}  // namespace commtune
