//===- Random.h - counter-based random numbers ------------------*- C++ -*-===//
//
// xla.rng: element i (row-major index in the GLOBAL tensor) is a pure
// function of (seed, i), so a device that fills its block at some offsets of
// the global tensor gets exactly the slice of the unsharded result.
//
// bits(seed, i, lane) = mix(mix(seed ^ K1) + (2i + lane) * K2), with mix the
// splitmix64 finalizer. uniform: a + (b - a) * u with u = top 53 bits of
// lane 0 / 2^53, kept below b after rounding. normal: Box-Muller on lanes 0
// and 1, a + b * sqrt(-2 ln u1) cos(2 pi u2).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_RANDOM_H
#define XSPMD_RUNTIME_KERNELS_RANDOM_H

#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

enum class RandomDistribution { uniform, normal };

/// 64 random bits for counter (index, lane).
uint64_t randomBits(uint64_t seed, uint64_t index, uint64_t lane);

/// Fills `out` with the block at `offsets` of a `globalShape` random tensor
/// (pass out's shape and zero offsets for an unsharded tensor).
void fillRandom(RandomDistribution distribution, uint64_t seed, double a,
                double b, llvm::ArrayRef<int64_t> globalShape,
                llvm::ArrayRef<int64_t> offsets, Tensor &out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_RANDOM_H
