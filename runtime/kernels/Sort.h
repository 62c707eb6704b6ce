//===- Sort.h - HLO sort ----------------------------------------*- C++ -*-===//
//
// Sorts N tensors of one shape along a dimension by a comparator
// (xla.sort). Each row is sorted as a permutation of its positions, which
// then moves every input's row. A comparator `compare lt|gt, arg0, arg1`
// (keys of input 0, ascending or descending) takes a fast path that
// compares typed keys directly, ordering NaN above every number (last
// ascending, first descending, as torch.sort does); any other comparator
// runs as a ScalarComputation under std::stable_sort, which stays in bounds
// even for a comparator that is not a strict weak order.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_SORT_H
#define XSPMD_RUNTIME_KERNELS_SORT_H

#include "runtime/kernels/ScalarComputation.h"
#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

/// out[i] = inputs[i] with every row along `dim` permuted into the
/// comparator's order (`comparator` takes lhs0, rhs0, lhs1, rhs1, ... and
/// yields an i1). `stable` keeps equal elements in order. `out` has one
/// tensor per input, allocated by the caller with the input's type.
void sort(llvm::ArrayRef<const Tensor *> inputs, int64_t dim, bool stable,
          const ScalarComputation &comparator,
          llvm::MutableArrayRef<Tensor> out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_SORT_H
