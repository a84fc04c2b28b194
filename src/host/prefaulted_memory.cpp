#include "host/prefaulted_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace commtune {

namespace {

void* mapped(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

void populated(void* p, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  (void)::madvise(p, bytes, MADV_HUGEPAGE);  // refused where huge pages are off: 4 KiB pages
#endif
#ifdef MADV_POPULATE_WRITE
  (void)::madvise(p, bytes, MADV_POPULATE_WRITE);  // refused before Linux 5.14: faulted on first write
#endif
}

}  // namespace

PrefaultedMemory::PrefaultedMemory(std::size_t bytes)
    : mapped_bytes_(std::max<std::size_t>(bytes, 1)),  // mmap refuses a length of 0
      data_(static_cast<char*>(mapped(mapped_bytes_))),
      size_(bytes) {
  populated(data_, mapped_bytes_);
}

PrefaultedMemory::~PrefaultedMemory() { ::munmap(data_, mapped_bytes_); }

}  // namespace commtune
