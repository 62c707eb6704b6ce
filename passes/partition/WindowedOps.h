//===- WindowedOps.h - ops whose windows cross shards -----------*- C++ -*-===//
//
// Slice, pad, convolution, reduce_window and select_and_scatter have
// permutation factors: each output block reads a window of the input that
// may reach into a neighbour's block. The partitioner keeps such a factor
// split when a halo exchange brings the window in (passes/partition/Halo.h),
// or, for select_and_scatter, when every window stays inside one shard; it
// gathers the dimension otherwise. This file says which, per op.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_WINDOWEDOPS_H
#define XSPMD_PASSES_PARTITION_WINDOWEDOPS_H

#include "passes/partition/FactorAssignment.h"
#include "passes/partition/Halo.h"

namespace xspmd::partition {

/// Whether the partitioner may keep the permutation factors of `op` split.
bool isWindowedOp(mlir::Operation *op);

/// The operands a halo exchange extends: operand 0, or every input of a
/// reduce_window.
llvm::SmallVector<unsigned> windowedOperands(mlir::Operation *op);

/// How a windowed op computes along a split dimension.
struct SplitWindow {
  enum Kind {
    /// Each device receives the ends of its window from its neighbours.
    halo,
    /// Windows stay inside shards: the local op needs nothing more.
    local,
    /// The dimension must be gathered.
    gather,
  } kind = gather;
  /// The input window of a device (halo only).
  Window window{};
  /// Why the dimension is gathered (gather only).
  llvm::StringRef reason;
};

/// What `op` needs along dimension `dim` of its windowed operands, whose
/// permutation factor `assignment` splits.
SplitWindow planSplitWindow(mlir::Operation *op, int64_t dim,
                            const FactorAssignment &assignment,
                            const xla::MeshModel &mesh);

/// The value the window of windowed operand `operand` holds outside the
/// tensor: the pad value, zero for a convolution, the init of a
/// reduce_window (planSplitWindow only chooses a halo when it is a
/// constant).
mlir::TypedAttr windowFill(mlir::Builder &b, mlir::Operation *op,
                           unsigned operand);

/// Clears the padding of `windowedDims` in the local op `localOp`: its
/// windows already hold it.
void clearWindowedPadding(mlir::Operation *localOp,
                          llvm::ArrayRef<int64_t> windowedDims);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_WINDOWEDOPS_H
