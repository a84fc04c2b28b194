#include "backend/mpi/host_buffers.hpp"

#include <cstring>
#include <new>

namespace commtune {

void HostBuffers::AlignedFree::operator()(std::byte* p) const {
  ::operator delete[](p, std::align_val_t{kAlignment});
}

std::span<std::byte> HostBuffers::Buffer::grown(std::size_t bytes) {
  if (size_ < bytes) {
    data_.reset();  // nothing to keep, and the old block is freed before the new one is taken
    size_ = 0;
    auto* fresh = static_cast<std::byte*>(::operator new[](bytes, std::align_val_t{kAlignment}));
    std::memset(fresh, 0, bytes);
    data_.reset(fresh);
    size_ = bytes;
  }
  return {data_.get(), bytes};
}

}  // namespace commtune
