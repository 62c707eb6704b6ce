//===- AxisSharding.h - shardings as axis lists, factor projection -*- C++ -*-//
//
// The plain form of a tensor sharding that propagation and the partitioner
// compute with (mesh axes per dimension, pending-reduction axes), the mesh
// facts they need (axis sizes and link classes), and the two maps between a
// tensor's dimensions and an op's factors (dialects/xla/XlaShardingRule.h):
//
//   projectDim  dimension axes -> axes of each of its factors
//   composeDim  axes of each factor -> dimension axes
//
// A dimension made of factors [f1, f2] (major to minor) with sizes [4, 8]
// sharded over axes ("x"=2, "y"=2, "z"=4) gives f1 <- ("x", "y") and
// f2 <- ("z"): an axis goes to the current factor while the running product
// divides it, and the next factor starts once the current one is exactly
// covered. An axis that would have to be split between two factors (a
// sub-axis) stops the projection: xspmd shardings name whole axes only.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PROPAGATION_AXISSHARDING_H
#define XSPMD_PASSES_PROPAGATION_AXISSHARDING_H

#include "dialects/xla/XlaDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace xspmd::prop {

/// Mesh axes (by name), major to minor.
using AxisList = llvm::SmallVector<mlir::StringAttr, 2>;

/// Axis sizes of one mesh, looked up by name.
class MeshAxes {
public:
  explicit MeshAxes(xla::MeshAttr mesh);
  xla::MeshAttr getMesh() const { return mesh; }
  /// Size of `axis` (1 for an unknown name).
  int64_t size(mlir::StringAttr axis) const;
  /// Mesh order of `axis` (its index), for deterministic sorting.
  int64_t index(mlir::StringAttr axis) const;
  int64_t product(llvm::ArrayRef<mlir::StringAttr> axes) const;

private:
  xla::MeshAttr mesh;
  llvm::SmallDenseMap<mlir::StringAttr, int64_t, 8> indexOf;
};

/// A tensor sharding: axes per dimension and the axes of a pending
/// reduction (`partial`).
struct AxisSharding {
  llvm::SmallVector<AxisList, 4> dims;
  AxisList partial;

  /// Number of shards of the whole tensor (product over dimensions).
  int64_t numShards(const MeshAxes &axes) const;
  bool usesAxis(mlir::StringAttr axis) const;
  bool operator==(const AxisSharding &other) const {
    return dims == other.dims && partial == other.partial;
  }

  static AxisSharding fromAttr(xla::ShardingAttr sharding);
};

/// Projects `axes` (sharding one dimension made of `dimFactors`) onto the
/// factors: appends to factorAxes[f] for each factor f of the dimension.
/// A dimension of a single factor takes every axis, divisible or not (the
/// partitioner pads); with `shardElements`, only while the factor has fewer
/// shards than elements, as the partitioner assigns an op's factors (more
/// would only shard padding). Returns how many leading axes were placed;
/// the rest cannot be expressed on the factors without splitting an axis.
size_t projectDim(llvm::ArrayRef<mlir::StringAttr> axes,
                  llvm::ArrayRef<int64_t> dimFactors,
                  llvm::ArrayRef<int64_t> factorSizes, const MeshAxes &mesh,
                  llvm::MutableArrayRef<AxisList> factorAxes,
                  bool shardElements = false);

/// The axes of a dimension made of `dimFactors` whose factors are sharded by
/// `factorAxes`: their concatenation, major to minor, up to and including
/// the first factor that is not exactly covered (later axes would not give
/// contiguous shards). A dimension of a single factor takes its axes as is.
AxisList composeDim(llvm::ArrayRef<int64_t> dimFactors,
                    llvm::ArrayRef<AxisList> factorAxes,
                    llvm::ArrayRef<int64_t> factorSizes, const MeshAxes &mesh);

/// True when `prefix` is a prefix of `list`.
bool isPrefix(llvm::ArrayRef<mlir::StringAttr> prefix,
              llvm::ArrayRef<mlir::StringAttr> list);

} // namespace xspmd::prop

#endif // XSPMD_PASSES_PROPAGATION_AXISSHARDING_H
