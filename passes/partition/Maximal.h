//===- Maximal.h - values that live on one device ---------------*- C++ -*-===//
//
// A sharding over a maximal mesh (`<[], devices=[k]>`, GSPMD's
// `{maximal device=k}`) puts the whole value on device k. Every device holds
// a block of the global shape, but only device k's is the value; the others
// hold zeros or stale data. Ops whose results are maximal run on device k
// only (an `xla.case` on partition_id == k, as GSPMD's HandleSingleDevice
// builds a conditional), and a maximal value a sharded consumer needs is
// broadcast from device k: masked to zero elsewhere it is a pending sum over
// every mesh axis, which the reshard planner reduces into the consumer's
// layout (an all-reduce, or a reduce-scatter when the consumer is split).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_MAXIMAL_H
#define XSPMD_PASSES_PARTITION_MAXIMAL_H

#include "passes/partition/ReshardPlanner.h"

#include "mlir/IR/Builders.h"

namespace xspmd::partition {

/// A reshard that involves a maximal layout, as a planner reshard between
/// two ordinary layouts, after masking the source to its device if `mask`.
struct MaximalReshard {
  ShardLayout from;
  ShardLayout to;
  /// The device the source is masked to (-1: no mask).
  int64_t maskDevice = -1;
};

/// How to move a value from `from` to `to` (at least one of them maximal)
/// on `mesh`, the mesh of the function:
///   - maximal(k) to anything else: mask to device k, then reduce the
///     pending sum over every axis into `to` (its ordinary part);
///   - an ordinary layout to maximal(k): make it replicated (device k then
///     holds the whole value); replicated already is free.
MaximalReshard planMaximalReshard(const ShardLayout &from,
                                  const ShardLayout &to, const MeshModel &mesh);

/// `value` on device `device` and zeros elsewhere:
/// select(partition_id == device, value, 0).
mlir::Value maskToDevice(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, int64_t device);

/// `op` rebuilt on its (whole) local `operands` to run on device `device`
/// only: an `xla.case` on partition_id == device whose other branch yields
/// zeros. Returns the case's results, one per result of `op`.
mlir::SmallVector<mlir::Value> buildMaximalOp(mlir::OpBuilder &b,
                                              mlir::Operation *op,
                                              mlir::ValueRange operands,
                                              int64_t device);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_MAXIMAL_H
