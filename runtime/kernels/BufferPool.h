//===- BufferPool.h - reuse of tensor storage -------------------*- C++ -*-===//
//
// Freed tensor storage is kept, by exact size, for the next tensor of that
// size. A program run repeatedly, or by several devices, then writes into
// warm pages instead of faulting in (and zeroing) fresh ones from the OS on
// every op, which costs as much as a small matmul. Small blocks go straight
// to malloc; the cache is bounded (XSPMD_BUFFER_POOL_MB, default 1024).
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

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_BUFFERPOOL_H
