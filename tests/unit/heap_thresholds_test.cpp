#include "backend/mpi/heap_thresholds.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <map>
#include <string>

namespace commtune {
namespace {

// A block written through, so that the compiler cannot leave out its malloc and free.
void* used_block(std::size_t bytes) {
  void* block = std::malloc(bytes);
  if (block != nullptr) *static_cast<volatile char*>(block) = 1;
  return block;
}

using Environment = std::map<std::string, std::string>;  // name to value, as host/launcher reads it

TEST(HeapThresholds, AThresholdTheEnvironmentSetsIsTheUsers) {
  EXPECT_EQ(user_heap_setting(Environment({})), std::nullopt);
  EXPECT_EQ(user_heap_setting(Environment({{"PATH", "/bin"}, {"MALLOC_ARENA_MAX", "2"}})), std::nullopt);
  for (const char* name :
       {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"})
    EXPECT_EQ(user_heap_setting(Environment({{name, "131072"}})), std::string(name));
  EXPECT_EQ(user_heap_setting(Environment({{"GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1"}})),
            std::string("GLIBC_TUNABLES"));
  EXPECT_EQ(
      user_heap_setting(Environment({{"GLIBC_TUNABLES", "glibc.pthread.rseq=0:glibc.malloc.mmap_max=0"}})),
      std::string("GLIBC_TUNABLES"));
  // Tunables that move no threshold leave the thresholds to commtune.
  EXPECT_EQ(
      user_heap_setting(Environment({{"GLIBC_TUNABLES", "glibc.malloc.arena_max=2:glibc.malloc.perturb=0"}})),
      std::nullopt);
}

TEST(HeapThresholds, TheEnvironmentsOwnSettingIsLeftAndSaidSo) {
  const std::string said = hold_heap_thresholds(Environment({{"MALLOC_TOP_PAD_", "0"}}));
  EXPECT_NE(said.find("as the environment sets them (MALLOC_TOP_PAD_)"), std::string::npos) << said;
}

// A block below the held mmap threshold comes from the heap, also after a block of its size was
// freed (glibc's own rule would mmap it again: its threshold rises only to the freed size).
TEST(HeapThresholds, HeldBlocksBelowThirtyTwoMebibytesComeFromTheHeap) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's allocator replaces glibc's malloc: no thresholds to hold";
#else
  const std::string said = hold_heap_thresholds(Environment({}));
  ASSERT_NE(said.find("held by commtune: mmap 32 MiB, trim 64 MiB"), std::string::npos) << said;
  const std::size_t before = mallinfo2().hblks;
  for (const std::size_t bytes : {std::size_t{1} << 20, std::size_t{16} << 20, std::size_t{16} << 20}) {
    void* block = used_block(bytes);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(mallinfo2().hblks, before) << bytes << " bytes were mmapped";
    std::free(block);
  }
  void* large = used_block(std::size_t{48} << 20);  // above the threshold: mmapped, as glibc does
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(mallinfo2().hblks, before + 1);
  std::free(large);
#endif
}

}  // namespace
}  // namespace commtune
