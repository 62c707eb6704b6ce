//===- LocalOps.h - the local op each device runs ----------------*- C++
//-*-===//
//
// Once an op's factors are assigned to mesh axes (FactorAssignment) and its
// operands are resharded, each device runs a local op on its blocks. Most
// local ops are the global op with local types; these build the ones whose
// attributes or semantics depend on where the block lies:
//
// - slice, pad, dynamic_slice and mean get local sizes (a mean divides the
//   local sums by the global count);
// - a grouped convolution keeps whole groups per device;
// - rng draws its block from the global stream by offsets;
// - a gather from a table split along its rows (the vocabulary-parallel
//   embedding) looks up the rows it owns and contributes zeros for the
//   others, a pending sum.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_LOCALOPS_H
#define XSPMD_PASSES_PARTITION_LOCALOPS_H

#include "passes/partition/FactorAssignment.h"
#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaShardingRule.h"

namespace xspmd::partition {

/// The local op of `op` (built by its sharding `rule`) on the local
/// `operands` in the layouts of `assignment`; `windowedDims` are operand
/// dimensions whose window the halo exchange already applied.
mlir::Operation *buildLocalRuleOp(LocalBuilder &local, mlir::Operation *op,
                                  llvm::ArrayRef<mlir::Value> operands,
                                  const FactorAssignment &assignment,
                                  const xla::OpShardingRule &rule,
                                  llvm::ArrayRef<int64_t> windowedDims,
                                  const MeshModel &mesh);

/// The local draw of `op` whose result has `layout` (no pending axes).
mlir::Value buildLocalRng(LocalBuilder &local, xla::RngOp op,
                          const ShardLayout &layout, const MeshModel &mesh);

/// The local gather of `op` from the local `table` at the local `indices`.
mlir::Value buildLocalEmbeddingGather(LocalBuilder &local, xla::GatherOp op,
                                      mlir::Value table, mlir::Value indices,
                                      const FactorAssignment &assignment,
                                      const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_LOCALOPS_H
