//===- DeviceThreads.h - threads that run simulated devices -----*- C++ -*-===//
//
// Simulated devices block on each other in collectives, so all of them must
// run at once: one thread each. Creating and joining N threads per run costs
// as much as a small program, so the threads are kept between runs.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_DEVICETHREADS_H
#define XSPMD_RUNTIME_EXEC_DEVICETHREADS_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace xspmd::runtime {

/// Calls body(0) .. body(n - 1) concurrently, each on its own thread (body(0)
/// on the caller's), and returns when all have returned. Threads are reused
/// across calls; a call made while another is running uses fresh threads.
void runConcurrently(int64_t n, llvm::function_ref<void(int64_t)> body);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_DEVICETHREADS_H
