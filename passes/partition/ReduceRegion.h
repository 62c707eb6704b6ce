//===- ReduceRegion.h - partitioning reductions with any body ---*- C++ -*-===//
//
// A reduce_region whose body is no recognised reduction (an argmax, a
// multi-operand reduce) has no all-reduce that combines its partial results.
// When an input is split along a reduced dimension, the partitioner either
// gathers that dimension, or reduces in two stages, as GSPMD does for such
// reduces: each device reduces its block (padding masked with the init, so
// it never wins), the devices all-gather their partial results along the
// split axes as a new leading dimension, and every device reduces that
// dimension with the same body. The second moves one partial result per
// shard instead of the input's blocks; the planner's costs decide.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_REDUCEREGION_H
#define XSPMD_PASSES_PARTITION_REDUCEREGION_H

#include "passes/partition/FactorAssignment.h"
#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

/// `rule` with the (need-replication) reduced dimensions of `op` turned into
/// reduction factors: the rule of the two-stage plan, whose first stage
/// leaves each result partial over the axes splitting them.
xla::OpShardingRule splitReducedDims(xla::ReduceRegionOp op,
                                     const xla::OpShardingRule &rule);

/// What gathering the partial results (local layouts `results`, partial
/// over the same axes) costs.
double partialGatherCost(xla::ReduceRegionOp op,
                         llvm::ArrayRef<ShardLayout> results,
                         ReshardPlanner &planner);

/// The same, each reshard of the stacked partials priced by `price`
/// (global shape, element bytes, from, to) instead of the planner.
double partialGatherPrice(
    xla::ReduceRegionOp op, llvm::ArrayRef<ShardLayout> results,
    const xla::MeshModel &mesh,
    llvm::function_ref<double(llvm::ArrayRef<int64_t>, int64_t,
                              const ShardLayout &, const ShardLayout &)>
        price);

/// Builds the two stages for the local inputs and inits `operands` laid out
/// by `assignment` (an assignment of splitReducedDims's rule); returns the
/// local results, which are no longer partial.
llvm::SmallVector<mlir::Value>
buildTwoStageReduce(LocalBuilder &local, xla::ReduceRegionOp op,
                    llvm::ArrayRef<mlir::Value> operands,
                    const FactorAssignment &assignment, const MeshModel &mesh,
                    mlir::FlatSymbolRefAttr meshName);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_REDUCEREGION_H
