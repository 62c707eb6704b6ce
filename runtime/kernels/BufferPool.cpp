//===- BufferPool.cpp - reuse of tensor storage ---------------------------===//

#include "runtime/kernels/BufferPool.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>
#include <mutex>

namespace xspmd::runtime {

namespace {

constexpr size_t kAlignment = 64;
/// Below this, malloc's own free lists are as good.
constexpr size_t kSmallest = 16 * 1024;

size_t roundUp(size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

struct Pool {
  std::mutex mutex;
  llvm::DenseMap<size_t, llvm::SmallVector<void *, 4>> free;
  size_t cached = 0;
  size_t limit;

  Pool() {
    const char *env = std::getenv("XSPMD_BUFFER_POOL_MB");
    limit = (env ? std::strtoull(env, nullptr, 10) : 1024) << 20;
  }

  void trim() {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &entry : free)
      for (void *p : entry.second)
        std::free(p);
    free.clear();
    cached = 0;
  }
};

/// Never destroyed: tensors may outlive static destruction order.
Pool &pool() {
  static Pool *instance = new Pool();
  return *instance;
}

} // namespace

void *acquireBuffer(size_t bytes) {
  size_t size = roundUp(bytes ? bytes : 1);
  if (size >= kSmallest) {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.free.find(size);
    if (it != p.free.end() && !it->second.empty()) {
      void *buffer = it->second.pop_back_val();
      p.cached -= size;
      return buffer;
    }
  }
  void *buffer = std::aligned_alloc(kAlignment, size);
  if (!buffer)
    llvm::report_fatal_error("xspmd: out of memory allocating a tensor of " +
                             llvm::Twine(bytes) + " bytes");
  return buffer;
}

void releaseBuffer(void *buffer, size_t bytes) {
  size_t size = roundUp(bytes ? bytes : 1);
  if (size >= kSmallest) {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.cached + size <= p.limit) {
      p.free[size].push_back(buffer);
      p.cached += size;
      return;
    }
  }
  std::free(buffer);
}

void trimBufferPool() { pool().trim(); }

} // namespace xspmd::runtime
