//===- ManualComputation.h - partitioning xla.manual_computation -*- C++
//-*-===//
//
// The body of a manual computation is already per-device code. The
// partitioner reshards each operand to its in_shardings entry, copies the
// body in place with the local operands as its arguments (its collectives,
// axis_index and partition_id stay as written), and places each result in
// the layout of its out_shardings entry.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_MANUALCOMPUTATION_H
#define XSPMD_PASSES_PARTITION_MANUALCOMPUTATION_H

#include "passes/partition/ControlFlow.h"

namespace xspmd::partition {

/// Partitions `op` as described above.
mlir::LogicalResult partitionManualComputation(xla::ManualComputationOp op,
                                               RegionPartitioner &p);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_MANUALCOMPUTATION_H
