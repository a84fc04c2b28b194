#include "backend/mpi/host_buffers.hpp"

namespace commtune {

std::span<std::byte> HostBuffers::grown(std::vector<std::byte>& buffer, std::size_t bytes) {
  if (buffer.size() < bytes) {
    buffer.clear();  // nothing to keep: a reallocation would copy the old contents for nothing
    buffer.shrink_to_fit();
    buffer.resize(bytes);
  }
  return {buffer.data(), bytes};
}

}  // namespace commtune
