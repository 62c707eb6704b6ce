//===- XlaReductionOps.h - helpers of the reductions with a body -*- C++
//-*-===//
//
// Shape and body analyses shared by the verifiers of xla.reduce_region,
// xla.reduce_window and xla.select_and_scatter, their sharding rules, the
// partitioner and the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLAREDUCTIONOPS_H
#define XSPMD_DIALECTS_XLA_XLAREDUCTIONOPS_H

#include "dialects/xla/XlaOps.h"

namespace xspmd::xla {

/// The result shape of a window reduction over `shape` (HLO reduce-window):
/// per dimension, with `D = (size - 1) * base + 1` (0 for size 0),
/// `P = lo + D + hi` and `K = (window - 1) * dilation + 1`, 0 when `P < K`
/// and `(P - K) / stride + 1` otherwise. Empty dilation lists mean 1;
/// `padding` is flat `[lo0, hi0, lo1, hi1, ...]`.
llvm::SmallVector<int64_t> windowedShape(
    llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> window,
    llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> baseDilations,
    llvm::ArrayRef<int64_t> windowDilations, llvm::ArrayRef<int64_t> padding);

/// The reduction `body` computes when it is `yield op(arg0, arg1)` (either
/// operand order) for add, mul, max, min, and, or; nothing otherwise.
std::optional<ReductionKind> matchReductionBody(mlir::Region &body);

/// Whether `init` is a constant holding the identity of `kind` (0 for sum,
/// 1 for mul, -inf or the lowest integer for max, ...).
bool isIdentityInit(mlir::Value init, ReductionKind kind);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLAREDUCTIONOPS_H
