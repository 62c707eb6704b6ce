//===- HloSharding.h - XLA's HloSharding text form ---------------*- C++
//-*-===//
//
// Conversion between xspmd shardings (partition specs over a mesh) and the
// text XLA prints for an HloSharding, as PyTorch/XLA builds it from the same
// mesh and partition spec:
//
//   {replicated}
//   {maximal device=3}
//   {devices=[4,2]0,1,2,3,4,5,6,7}
//   {devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}
//   {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}      (iota form)
//
// The tile assignment is the logical mesh (its device array) transposed so
// that the axes of the partition spec come first, in spec order (a tuple
// merges its axes into one tile dimension, major to minor), followed by the
// unused axes in mesh order, which form the trailing replicated tile
// dimension. Devices within a replication group are sorted, as XLA's
// HloSharding::PartialTile does. docs/propagation.md lists the sources this
// was checked against.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_INTEROP_HLOSHARDING_H
#define XSPMD_PASSES_INTEROP_HLOSHARDING_H

#include "dialects/xla/XlaDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace xspmd::interop {

/// Name of the attribute holding HloSharding text on function arguments and
/// results (and ops), as in MHLO/StableHLO modules.
inline constexpr llvm::StringLiteral kHloShardingAttrName = "mhlo.sharding";

/// A parsed HloSharding of one array (no tuples).
struct HloSharding {
  enum class Kind { replicated, maximal, manual, unknown, tiled };
  Kind kind = Kind::replicated;
  /// maximal: the device.
  int64_t device = 0;
  /// tiled: tiles per dimension, then subgroup dimensions.
  llvm::SmallVector<int64_t> tileDims;
  /// tiled: the device of each tile, row-major (iota forms expanded).
  llvm::SmallVector<int64_t> devices;
  /// The last tile dimension replicates (`last_tile_dim_replicate`).
  bool lastTileDimReplicate = false;
  /// `last_tile_dims={...}`: one subgroup type per trailing tile dimension.
  llvm::SmallVector<std::string> subgroupTypes;

  /// Number of trailing tile dimensions that are not data dimensions.
  int64_t numSubgroupDims() const {
    return lastTileDimReplicate ? 1 : subgroupTypes.size();
  }
};

/// Parses XLA's text form. On failure returns false and sets `error`.
bool parseHloSharding(llvm::StringRef text, HloSharding &result,
                      std::string &error);

/// The text XLA prints for `sharding` over `mesh` (the explicit device list,
/// or with `iota` the `<=[...]T(...)` form where the mesh's device order is
/// an iota transposition: plain and hybrid meshes). A single-device mesh
/// gives `{maximal device=N}`. Fails (setting `error`) for a sharding with
/// pending (`partial`) axes, which HloSharding has no form for.
bool exportHloSharding(xla::ShardingAttr sharding, xla::MeshAttr mesh,
                       bool iota, std::string &result, std::string &error);

/// The partition spec over `mesh` (named `meshRef`) for a tensor of `rank`
/// whose HloSharding is `text`: the first spec, in mesh-axis order, that
/// exports to the same tile assignment (replication groups compared as
/// sets). Fails through `emitError` when the text is malformed or no spec
/// over the mesh expresses it.
mlir::FailureOr<xla::ShardingAttr>
importHloSharding(llvm::StringRef text, xla::MeshAttr mesh,
                  mlir::FlatSymbolRefAttr meshRef, int64_t rank,
                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace xspmd::interop

#endif // XSPMD_PASSES_INTEROP_HLOSHARDING_H
