//===- Indexing.h - hlo_gather and scatter on split blocks ------*- C++ -*-===//
//
// The local ops of HLO's gather and scatter once their sharding rules
// (dialects/xla/XlaShardingRuleModels.cpp) have split them:
//
// - gather with the operand split along an indexed dimension sliced by 1
//   (a reduction factor): each device clamps the start indices as the
//   unpartitioned op does, shifts them into its block, gathers, and keeps
//   what it owns, zeros elsewhere: a pending sum (the vocabulary-parallel
//   embedding, generalised to several indexed dimensions);
// - scatter with the inputs split along an indexed dimension of window
//   size 1: each device shifts the start indices into its block; updates
//   landing elsewhere are out of its bounds and skipped, as scatter skips
//   out-of-bounds updates (GSPMD's "trivially sliced" operand dimensions);
// - scatter with the updates split along their scatter dimensions (a
//   recognised pairwise combiner: add, max, ...): each device scatters its
//   updates into the inputs held as the same pending reduction (one device
//   of each group holds them, the others the combiner's identity), so the
//   pending result combines every update and the inputs once.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_INDEXING_H
#define XSPMD_PASSES_PARTITION_INDEXING_H

#include "passes/partition/FactorAssignment.h"
#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

/// The local result of `op` given its local operand and start indices, laid
/// out by `operandLayout`; the result has `resultLayout`.
mlir::Value buildLocalHloGather(LocalBuilder &local, xla::HloGatherOp op,
                                mlir::Value operand, mlir::Value indices,
                                const ShardLayout &operandLayout,
                                const ShardLayout &resultLayout,
                                const MeshModel &mesh);

/// Gives the inputs of a scatter the pending reduction its results get
/// (when the updates are split along a reduction factor).
void makeScatterInputsPartial(xla::ScatterOp op, FactorAssignment &assignment);

/// The local scatter, given its local operands (inputs, indices, updates)
/// in the layouts of `assignment`.
mlir::Operation *buildLocalScatter(LocalBuilder &local, xla::ScatterOp op,
                                   llvm::ArrayRef<mlir::Value> operands,
                                   const FactorAssignment &assignment,
                                   const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_INDEXING_H
