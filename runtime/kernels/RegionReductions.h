//===- RegionReductions.h - reductions with a computation -------*- C++ -*-===//
//
// Kernels of xla.reduce_region, xla.reduce_window and xla.select_and_scatter:
// the ops' scalar computations, compiled (ScalarComputation), applied per
// element. Elements are folded in row-major order of the reduced (or
// window) indices, starting from the init values.
//
// Recognised bodies take a fast path: a single-input reduction whose body is
// add/mul/max/min/and/or of its arguments runs as xla.reduce does (bf16 and
// f16 accumulate in f32 and round once at the end, as TPUs reduce), then
// combines the init in; select-and-scatter with a `compare` select and an
// `add` scatter (a max or min pool's gradient) runs without the evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_REGIONREDUCTIONS_H
#define XSPMD_RUNTIME_KERNELS_REGIONREDUCTIONS_H

#include "runtime/kernels/ScalarComputation.h"
#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

/// Per dimension: window size, stride, base dilation, window dilation, and
/// padding as flat `[lo0, hi0, lo1, hi1, ...]` (HLO reduce-window; select-
/// and-scatter has no dilations: all 1).
struct WindowParams {
  Shape dimensions, strides, baseDilations, windowDilations, padding;
};

/// results[i] = inputs[i] folded over `dims` from *inits[i] (rank 0) by
/// `body` (2N scalar arguments: the accumulators, then the elements).
/// `results` are allocated by the caller with the kept dimensions.
void reduceWithComputation(const ScalarComputation &body,
                           llvm::ArrayRef<const Tensor *> inputs,
                           llvm::ArrayRef<const Tensor *> inits,
                           llvm::ArrayRef<int64_t> dims,
                           llvm::MutableArrayRef<Tensor> results);

/// results[i][o] = the window of position o folded from *inits[i]; padding
/// and base-dilation holes hold the init value. `results` are allocated by
/// the caller with the window op's result shape.
void reduceWindow(const ScalarComputation &body,
                  llvm::ArrayRef<const Tensor *> inputs,
                  llvm::ArrayRef<const Tensor *> inits,
                  const WindowParams &window,
                  llvm::MutableArrayRef<Tensor> results);

/// HLO select-and-scatter (see xla.select_and_scatter): `result`, allocated
/// by the caller with the operand's shape, receives init plus the source
/// elements scattered into the positions `select` picks.
void selectAndScatter(const ScalarComputation &select,
                      const ScalarComputation &scatter, const Tensor &operand,
                      const Tensor &source, const Tensor &init,
                      const WindowParams &window, Tensor &result);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_REGIONREDUCTIONS_H
