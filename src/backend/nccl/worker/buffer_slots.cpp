#include "backend/nccl/worker/buffer_slots.hpp"

#include <algorithm>

namespace commtune {

std::optional<std::size_t> BufferSlots::grow(BufferSlot slot, std::size_t needed, std::size_t planned) {
  std::size_t& held = capacity_[static_cast<std::size_t>(slot)];
  if (needed <= held && held > 0) return std::nullopt;
  held = std::max({needed, planned, std::size_t{1}});
  return held;
}

}  // namespace commtune
