//===- FunctionPartitioner.h - one function to an SPMD program --*- C++ -*-===//
//
// Rewrites a function whose values carry shardings into the program every
// device runs on its local blocks: each op computes in the layout its
// sharding rule allows (FactorAssignment), operands are resharded to it with
// the cheapest collectives (ReshardPlanner), and padding is neutralized
// where an op reduces over it.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_FUNCTIONPARTITIONER_H
#define XSPMD_PASSES_PARTITION_FUNCTIONPARTITIONER_H

#include "passes/partition/PartitionOptions.h"
#include "passes/partition/ReshardPlanner.h"

#include "dialects/xla/XlaOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace xspmd::partition {

struct PartitionStats {
  int64_t reshards = 0;
  int64_t collectives = 0;
};

/// Partitions `func` over `mesh` (the one mesh its shardings name), using
/// `planner` (which must be built for that mesh). Emits a located error and
/// fails on what it cannot partition.
mlir::LogicalResult partitionFunction(mlir::func::FuncOp func, xla::MeshOp mesh,
                                      ReshardPlanner &planner,
                                      const PartitionOptions &options,
                                      PartitionStats &stats);

/// The one mesh the shardings of `func` name; null when it has none. Emits
/// an error and fails when it names several.
mlir::FailureOr<xla::MeshOp> findFunctionMesh(mlir::func::FuncOp func);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_FUNCTIONPARTITIONER_H
