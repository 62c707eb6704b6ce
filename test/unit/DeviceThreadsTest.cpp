//===- DeviceThreadsTest.cpp - concurrent device threads ------------------===//

#include "runtime/exec/DeviceThreads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace xspmd::runtime;

namespace {

/// Every body waits until all n have started: passes only if they really
/// run at the same time (gives up after 10 s instead of hanging).
bool allRunTogether(int64_t n) {
  std::atomic<int64_t> started{0};
  std::atomic<bool> timedOut{false};
  runConcurrently(n, [&](int64_t) {
    ++started;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < n)
      if (std::chrono::steady_clock::now() > deadline) {
        timedOut = true;
        return;
      }
  });
  return !timedOut;
}

TEST(DeviceThreads, RunsEveryIndexConcurrentlyAndReusesThreads) {
  for (int64_t n : {1, 2, 8, 3, 16, 8}) {
    std::vector<std::atomic<int>> hits(n);
    runConcurrently(n, [&](int64_t i) { ++hits[i]; });
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(hits[i].load(), 1);
    EXPECT_TRUE(allRunTogether(n));
  }
}

TEST(DeviceThreads, OverlappingCallsFromTwoThreads) {
  std::atomic<bool> ok1{false}, ok2{false};
  std::thread a([&] { ok1 = allRunTogether(6); });
  std::thread b([&] { ok2 = allRunTogether(5); });
  a.join();
  b.join();
  EXPECT_TRUE(ok1);
  EXPECT_TRUE(ok2);
}

} // namespace
