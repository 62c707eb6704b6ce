//===- ReshardBuilder.h - emit the collectives of a reshard plan -*- C++
//-*-===//

#ifndef XSPMD_PASSES_PARTITION_RESHARDBUILDER_H
#define XSPMD_PASSES_PARTITION_RESHARDBUILDER_H

#include "passes/partition/ReshardPlanner.h"

#include "mlir/IR/Builders.h"

namespace xspmd::partition {

/// Emits `plan`'s steps on the local value `local` (whose type is the local
/// type of the plan's source layout) and returns the local value of the
/// target layout. Collectives name their participants by the axes of the
/// mesh `meshName`; permutes list device ids.
mlir::Value buildReshard(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value local, const ReshardPlan &plan,
                         const MeshModel &mesh,
                         mlir::FlatSymbolRefAttr meshName);

/// The local tensor type of `layout` for a tensor whose global type is
/// `globalType`.
mlir::RankedTensorType localType(mlir::RankedTensorType globalType,
                                 const ShardLayout &layout,
                                 const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_RESHARDBUILDER_H
