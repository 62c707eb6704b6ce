//===- Elementwise.h - elementwise kernels ----------------------*- C++ -*-===//
//
// Elementwise kernels over contiguous buffers of one element type. A kernel
// is looked up once (per op, at compile time of the program) and then runs a
// plain loop the compiler can vectorize.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_ELEMENTWISE_H
#define XSPMD_RUNTIME_KERNELS_ELEMENTWISE_H

#include "runtime/kernels/ElementType.h"

#include <cstddef>
#include <cstdint>

namespace xspmd::runtime {

enum class UnaryOp {
  neg,
  abs,
  exp,
  log,
  tanh,
  sqrt,
  rsqrt,
  sigmoid,
  relu,
  gelu,
  not_,
  floor,
  ceil,
  roundNearestAfz,
  roundNearestEven,
  sign,
  erf,
  cos,
  sin,
  tan,
  log1p,
  expm1,
  cbrt
};
enum class BinaryOp {
  add,
  sub,
  mul,
  div,
  max,
  min,
  pow,
  and_,
  or_,
  xor_,
  atan2,
  rem,
  shiftLeft,
  shiftRightArithmetic,
  shiftRightLogical
};
enum class CompareOp { eq, ne, lt, le, gt, ge };

using UnaryKernel = void (*)(const void *in, void *out, int64_t n);
using BinaryKernel = void (*)(const void *lhs, const void *rhs, void *out,
                              int64_t n);
/// Writes i1 (0/1 bytes).
using CompareKernel = void (*)(const void *lhs, const void *rhs, uint8_t *out,
                               int64_t n);
/// A test of each element, writing i1 (0/1 bytes).
using PredicateKernel = void (*)(const void *in, uint8_t *out, int64_t n);
/// out[i] = clamp(lo[i], x[i], hi[i]).
using ClampKernel = void (*)(const void *lo, const void *x, const void *hi,
                             void *out, int64_t n);

/// The kernel of `op` on `type`, or nullptr when the op is not defined on
/// that type (float math on integers, bitwise ops on floats, arithmetic on
/// i1): the dialect's type constraints rule those out.
UnaryKernel getUnaryKernel(UnaryOp op, ElementType type);
BinaryKernel getBinaryKernel(BinaryOp op, ElementType type);
CompareKernel getCompareKernel(CompareOp op, ElementType type);
/// is_finite on a float type; nullptr for the others.
PredicateKernel getIsFiniteKernel(ElementType type);
/// clamp on a numeric type; nullptr for i1.
ClampKernel getClampKernel(ElementType type);

/// out[i] = pred[i] ? onTrue[i] : onFalse[i] for elements of `width` bytes.
void selectElements(const uint8_t *pred, const void *onTrue,
                    const void *onFalse, void *out, int64_t n, size_t width);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_ELEMENTWISE_H
