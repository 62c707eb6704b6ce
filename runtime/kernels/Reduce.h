//===- Reduce.h - reductions and softmax ------------------------*- C++ -*-===//
//
// Reductions fold the reduced elements of each output sequentially in
// row-major order of the reduced indices, starting from the first element
// (an empty reduction gives the identity), so results do not depend on the
// layout path taken. bf16/f16 accumulate in f32 and round once at the end.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_REDUCE_H
#define XSPMD_RUNTIME_KERNELS_REDUCE_H

#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

enum class ReduceKind { sum, prod, max, min, mean, and_, or_ };

/// Reduces `in` over `dims`; `out` has the remaining dims.
void reduce(ReduceKind kind, const Tensor &in, llvm::ArrayRef<int64_t> dims,
            Tensor &out);

/// exp(x - max) / sum(exp(x - max)) along `dim` (float types).
void softmax(const Tensor &in, int64_t dim, Tensor &out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_REDUCE_H
