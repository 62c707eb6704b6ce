//===- LocalBuilder.h - helpers that build local-shape IR -------*- C++ -*-===//
//
// Small IR builders the partitioner shares: device-dependent offsets from
// mesh coordinates, masks that neutralize padding, slices and permutes of
// local blocks, scalar constants.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_LOCALBUILDER_H
#define XSPMD_PASSES_PARTITION_LOCALBUILDER_H

#include "passes/partition/ReshardPlanner.h"

#include "mlir/IR/Builders.h"

namespace xspmd::partition {

class LocalBuilder {
public:
  LocalBuilder(mlir::OpBuilder &builder, const MeshModel &mesh,
               mlir::FlatSymbolRefAttr meshName)
      : b(builder), mesh(mesh), meshName(meshName) {}

  /// Scalar i32 tensor holding this device's shard index along `dim` of
  /// `layout` (0 when the dimension is not split).
  mlir::Value shardIndex(mlir::Location loc, const ShardLayout &layout,
                         int64_t dim);

  /// Scalar i32 tensor holding the global index of this device's first
  /// element along `dim`.
  mlir::Value blockOffset(mlir::Location loc, const ShardLayout &layout,
                          int64_t dim);

  /// `local` with every element whose global index along one of `dims` is
  /// past `globalShape` replaced by `fill` (a scalar of the element type).
  /// Returns `local` when none of `dims` is padded.
  mlir::Value maskPadding(mlir::Location loc, mlir::Value local,
                          const ShardLayout &layout,
                          llvm::ArrayRef<int64_t> globalShape,
                          llvm::ArrayRef<int64_t> dims, mlir::TypedAttr fill);
  /// The same with `fill` a rank-0 tensor value (e.g. a reduction's init).
  mlir::Value maskPadding(mlir::Location loc, mlir::Value local,
                          const ShardLayout &layout,
                          llvm::ArrayRef<int64_t> globalShape,
                          llvm::ArrayRef<int64_t> dims, mlir::Value fill);

  /// `count` elements of `value` along `dim` from `begin`.
  mlir::Value sliceDim(mlir::Location loc, mlir::Value value, int64_t dim,
                       int64_t begin, int64_t count);

  /// A collective_permute of `value` among the devices that differ only in
  /// the mesh axes splitting `dim` of `layout`; `pairs` are [source, target]
  /// shard indices along that dimension. A device no pair targets receives
  /// zeros.
  mlir::Value permuteShards(mlir::Location loc, mlir::Value value,
                            const ShardLayout &layout, int64_t dim,
                            llvm::ArrayRef<std::pair<int64_t, int64_t>> pairs);

  /// An i1 tensor of `shape` that is true where `base` plus the index
  /// along `dim` lies in [`lo`, `hi`) (all three scalar i32 tensors): the
  /// elements of a block that fall in a window of the global tensor.
  mlir::Value rangeMask(mlir::Location loc, llvm::ArrayRef<int64_t> shape,
                        int64_t dim, mlir::Value base, mlir::Value lo,
                        mlir::Value hi);

  /// A splat constant of `type` (a tensor type) holding `value`.
  mlir::Value splat(mlir::Location loc, mlir::RankedTensorType type,
                    mlir::TypedAttr value);
  mlir::Value scalarI32(mlir::Location loc, int64_t value);

  mlir::OpBuilder &getBuilder() { return b; }

private:
  /// maskPadding with the fill tensor (of `local`'s type) `fills` builds.
  mlir::Value maskPaddingWith(
      mlir::Location loc, mlir::Value local, const ShardLayout &layout,
      llvm::ArrayRef<int64_t> globalShape, llvm::ArrayRef<int64_t> dims,
      llvm::function_ref<mlir::Value(mlir::RankedTensorType)> fills);

  mlir::OpBuilder &b;
  const MeshModel &mesh;
  mlir::FlatSymbolRefAttr meshName;
};

/// The static shape of a ranked tensor value.
inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getShape();
}

/// The identity of a reduction of `kind` over elements of type `elem`
/// (0 for sum, 1 for mul, the lowest value for max, ...).
mlir::TypedAttr reductionIdentity(mlir::Builder &b, xla::ReductionKind kind,
                                  mlir::Type elem);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_LOCALBUILDER_H
