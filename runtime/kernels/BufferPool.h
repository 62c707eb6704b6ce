//===- BufferPool.h - reuse of tensor storage -------------------*- C++ -*-===//
//
// Freed tensor storage is kept, by exact size, for the next tensor of that
// size. A program run repeatedly, or by several devices, then writes into
// warm pages instead of faulting in (and zeroing) fresh ones from the OS on
// every op, which costs as much as a small matmul.
//
// The cache adds at most an eighth to the program's peak: a miss first cuts
// the block from a larger cached one, and when none is left, gives cached
// blocks back to the OS until the live tensors plus the cache fit in an
// eighth more than the most the live tensors have ever needed at once (with
// one cached block per freed size, 8 simulated devices kept 100 MB of
// mismatched sizes at the MLP's peak, a third of its memory). Blocks are mapped
// from the OS directly, so what is given back leaves the process (glibc would
// keep it in its arenas, one per device thread), with transparent huge pages
// asked for on large ones. Small blocks go straight to malloc; the cache is
// also bounded by XSPMD_BUFFER_POOL_MB (default 1024).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_BUFFERPOOL_H
#define XSPMD_RUNTIME_KERNELS_BUFFERPOOL_H

#include <cstddef>

namespace xspmd::runtime {

/// 64-byte aligned storage of at least `bytes` bytes (never null; aborts
/// when memory runs out).
void *acquireBuffer(size_t bytes);

/// Gives back storage from acquireBuffer(bytes).
void releaseBuffer(void *buffer, size_t bytes);

/// Frees every cached block.
void trimBufferPool();

/// Bytes in pooled blocks (16 KiB and up, page rounded): held by tensors
/// now, at most so far, and cached.
struct BufferPoolUsage {
  size_t live = 0;
  size_t peakLive = 0;
  size_t cached = 0;
};
BufferPoolUsage getBufferPoolUsage();

/// The most live tensors plus the cache may hold on a miss, given the most
/// live tensors have held (their peak and an eighth).
size_t footprintBudget(size_t peakLive);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_BUFFERPOOL_H
