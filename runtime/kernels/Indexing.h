//===- Indexing.h - HLO gather and scatter ----------------------*- C++ -*-===//
//
// Kernels of HLO's general gather and scatter (xla.hlo_gather, xla.scatter;
// their semantics are in dialects/xla/XlaIndexingOps.td). Both walk the
// positions of the indices (all dimensions but the index vector's), read a
// start index vector at each, and move one window: the gather copies it with
// copyStrided, the scatter combines the updates into it, with a fast path for
// a combiner that is one binary op or an overwrite.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_INDEXING_H
#define XSPMD_RUNTIME_KERNELS_INDEXING_H

#include "runtime/kernels/ScalarComputation.h"
#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

/// How the index vectors of a gather or scatter address an operand.
struct IndexMapping {
  /// The indices' dimension holding the index vectors (the rank of the
  /// indices: each element is a one-component vector).
  int64_t indexVectorDim = 0;
  /// Operand dimension of each index component.
  Shape indexToOperandDims;
  /// Operand dimensions indexed by the position along the paired dimension
  /// of the indices (the batching dimensions).
  Shape operandBatchingDims, indicesBatchingDims;
};

struct GatherDimensions {
  IndexMapping mapping;
  /// Result dimensions walking the slice (the others walk the indices).
  Shape offsetDims;
  Shape collapsedSliceDims;
  Shape sliceSizes;
};

/// out = gather(operand, indices): starts are clamped into
/// [0, dim - slice size] per dimension, as XLA does. `out` has the result
/// type; `indices` are i32 or i64.
void hloGather(const Tensor &operand, const Tensor &indices,
               const GatherDimensions &dims, Tensor &out);

struct ScatterDimensions {
  IndexMapping mapping;
  /// Update dimensions walking the window (the others walk the indices).
  Shape updateWindowDims;
  Shape insertedWindowDims;
};

/// How a scatter combines the current values with the updates.
struct ScatterCombiner {
  /// The update computation: N current values, then N updates -> N values.
  const ScalarComputation *body = nullptr;
  /// The body yields the updates unchanged (index_put without accumulate).
  bool overwrite = false;
};

/// out[i] = inputs[i] with the updates combined in at the windows the
/// indices start; an update whose window does not fit in the inputs is
/// skipped. Updates are applied in the row-major order of their scatter
/// positions, then of their window positions. `out` has one tensor per
/// input, allocated by the caller with the input's type.
void scatter(llvm::ArrayRef<const Tensor *> inputs, const Tensor &indices,
             llvm::ArrayRef<const Tensor *> updates,
             const ScatterDimensions &dims, const ScatterCombiner &combiner,
             llvm::MutableArrayRef<Tensor> out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_INDEXING_H
