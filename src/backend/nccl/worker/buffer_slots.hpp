#pragma once
// How big the buffers kept for a communicator's whole life are (the NCCL engine's graph mode):
// NCCL registers the buffers a CUDA graph captures and reclaims the registrations lazily, so an
// address freed after one case and handed out again for the next can meet a stale registration
// (on a node with several GPUs). As nccl-tests, the engine allocates once, at the sweep's
// largest size, and reuses the buffers for every case. Pure arithmetic (the engine's DeviceArena
// does the allocating), so that the unit tests can check it without a GPU.
#include <array>
#include <cstddef>
#include <optional>

namespace commtune {

enum class BufferSlot : std::size_t { Recv, Send, Scratch };

class BufferSlots {
 public:
  // `needed`: what the slot must hold for this case; `planned`: what it holds for the sweep's
  // largest case of this collective. The capacity to allocate when the slot must be (re)allocated
  // (the larger of the two), nothing when what it holds suffices.
  std::optional<std::size_t> grow(BufferSlot slot, std::size_t needed, std::size_t planned);
  std::size_t capacity(BufferSlot slot) const { return capacity_[static_cast<std::size_t>(slot)]; }

 private:
  std::array<std::size_t, 3> capacity_{};
};

}  // namespace commtune
