//===- BufferPoolTest.cpp - tensor storage reuse bounds memory ------------===//

#include "runtime/kernels/BufferPool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace xspmd::runtime;

namespace {

constexpr size_t kMiB = 1 << 20;

TEST(BufferPoolTest, MissCutsALargerCachedBlock) {
  trimBufferPool();
  void *big = acquireBuffer(4 * kMiB);
  releaseBuffer(big, 4 * kMiB);
  BufferPoolUsage before = getBufferPoolUsage();
  ASSERT_EQ(before.cached, 4 * kMiB);
  // Two 1 MiB tensors come out of the cached 4 MiB: no fresh pages.
  auto *a = static_cast<uint8_t *>(acquireBuffer(kMiB));
  auto *b = static_cast<uint8_t *>(acquireBuffer(kMiB));
  BufferPoolUsage after = getBufferPoolUsage();
  EXPECT_EQ(after.cached, 2 * kMiB);
  EXPECT_EQ(after.live, before.live + 2 * kMiB);
  // They do not overlap.
  std::memset(a, 0x11, kMiB);
  std::memset(b, 0x22, kMiB);
  EXPECT_EQ(a[kMiB - 1], 0x11);
  EXPECT_EQ(b[0], 0x22);
  releaseBuffer(a, kMiB);
  releaseBuffer(b, kMiB);
  trimBufferPool();
  EXPECT_EQ(getBufferPoolUsage().cached, 0u);
}

TEST(BufferPoolTest, CacheKeepsTheFootprintNearPeakLive) {
  trimBufferPool();
  // Sizes that do not divide one another, freed in another order than
  // taken, as devices finishing at different times do.
  const size_t sizes[] = {3 * kMiB, 5 * kMiB / 2, 7 * kMiB, 96 * 1024,
                          kMiB + 4096};
  std::vector<std::pair<void *, size_t>> held;
  for (int round = 0; round < 20; ++round) {
    for (size_t i = 0; i < 5; ++i) {
      size_t size = sizes[(i + round) % 5] + round * 4096;
      held.push_back({acquireBuffer(size), size});
      BufferPoolUsage u = getBufferPoolUsage();
      EXPECT_LE(u.live + u.cached, footprintBudget(u.peakLive))
          << "round " << round;
    }
    for (size_t i = round % 2; i < held.size(); i += 2)
      releaseBuffer(held[i].first, held[i].second);
    std::vector<std::pair<void *, size_t>> kept;
    for (size_t i = 1 - round % 2; i < held.size(); i += 2)
      kept.push_back(held[i]);
    held = std::move(kept);
  }
  for (auto [p, size] : held)
    releaseBuffer(p, size);
  BufferPoolUsage u = getBufferPoolUsage();
  EXPECT_EQ(u.live, 0u);
  EXPECT_LE(u.cached, footprintBudget(u.peakLive));
}

TEST(BufferPoolTest, SmallBuffersBypassThePool) {
  BufferPoolUsage before = getBufferPoolUsage();
  void *p = acquireBuffer(100);
  EXPECT_EQ(getBufferPoolUsage().live, before.live);
  releaseBuffer(p, 100);
}

} // namespace
