//===- ControlFlow.h - partitioning xla.while and xla.case ------*- C++ -*-===//
//
// A loop is partitioned in place: each carried value keeps one layout (that
// of its sharding) for the loop's operand, both regions' arguments, the
// body's yield and the result. The initial values are resharded to it before
// the loop, the regions are partitioned recursively with their arguments
// placed in it (collectives the body needs are emitted inside the body),
// and the yielded values are resharded back to it at the end of the body.
// Values captured from above are used as they are placed; a reshard they
// need inside the body is built there (it runs every iteration).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_CONTROLFLOW_H
#define XSPMD_PASSES_PARTITION_CONTROLFLOW_H

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaShardLayout.h"

#include "mlir/IR/Builders.h"

namespace xspmd::partition {

/// What partitioning a region op needs from the function's partitioner.
class RegionPartitioner {
public:
  virtual ~RegionPartitioner();

  virtual mlir::OpBuilder &getBuilder() = 0;
  virtual const xla::MeshModel &getMeshModel() const = 0;
  /// The layout a sharding attribute (or none: replicated) gives `shape`.
  virtual xla::ShardLayout layoutOf(mlir::Attribute sharding,
                                    llvm::ArrayRef<int64_t> shape) const = 0;
  /// The local value of `global` in `layout`, resharding if needed.
  virtual mlir::Value getAs(mlir::Value global, const xla::ShardLayout &layout,
                            mlir::Location loc) = 0;
  /// Records that `global` is held as `local` in `layout`.
  virtual void place(mlir::Value global, mlir::Value local,
                     const xla::ShardLayout &layout) = 0;
  /// Partitions the ops of `block` but its terminator at the builder's
  /// insertion point. Reshards built meanwhile are forgotten afterwards
  /// (they do not dominate what follows the region).
  virtual mlir::LogicalResult partitionRegionBody(mlir::Block &block) = 0;
};

/// Partitions `op` as described above.
mlir::LogicalResult partitionWhile(xla::WhileOp op, RegionPartitioner &p);

/// Partitions a case: every device evaluates the (replicated) index, and
/// each branch is partitioned recursively, its yields resharded to the
/// layouts of the results.
mlir::LogicalResult partitionCase(xla::CaseOp op, RegionPartitioner &p);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_CONTROLFLOW_H
