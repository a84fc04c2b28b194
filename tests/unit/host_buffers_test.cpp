#include "backend/mpi/host_buffers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace commtune {
namespace {

bool on_boundary(std::span<std::byte> s) {
  return reinterpret_cast<std::uintptr_t>(s.data()) % HostBuffers::kAlignment == 0;
}

bool all_zero(std::span<std::byte> s) {
  return std::all_of(s.begin(), s.end(), [](std::byte b) { return b == std::byte{0}; });
}

TEST(HostBuffers, EveryBufferStartsOnAPageAndNewMemoryIsZero) {
  HostBuffers buffers;
  for (const std::size_t bytes :
       {std::size_t{4}, std::size_t{24}, std::size_t{32768}, std::size_t{1} << 20}) {
    const auto send = buffers.send(bytes), recv = buffers.recv(bytes);
    EXPECT_EQ(send.size(), bytes);
    EXPECT_EQ(recv.size(), bytes);
    EXPECT_TRUE(on_boundary(send)) << bytes;
    EXPECT_TRUE(on_boundary(recv)) << bytes;
    EXPECT_TRUE(all_zero(send)) << bytes;
    EXPECT_TRUE(all_zero(recv)) << bytes;
  }
}

TEST(HostBuffers, ASmallerCaseReusesTheBufferAndSeesWhatTheLastOneLeft) {
  HostBuffers buffers;
  const auto large = buffers.recv(65536);
  large[100] = std::byte{7};
  const auto small = buffers.recv(1024);
  EXPECT_EQ(small.data(), large.data());
  EXPECT_EQ(small.size(), 1024u);
  EXPECT_EQ(small[100], std::byte{7});
  const auto larger = buffers.recv(131072);  // grows: a new zeroed block, still on a page
  EXPECT_EQ(larger.size(), 131072u);
  EXPECT_TRUE(on_boundary(larger));
  EXPECT_TRUE(all_zero(larger));
}

}  // namespace
}  // namespace commtune
