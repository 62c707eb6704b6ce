//===- DynamicUpdate.h - dynamic_update_slice on split blocks ---*- C++ -*-===//

#ifndef XSPMD_PASSES_PARTITION_DYNAMICUPDATE_H
#define XSPMD_PASSES_PARTITION_DYNAMICUPDATE_H

#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

/// The local result of `op` (whose input is laid out by `inputLayout`, and
/// whose update by `updateLayout`) given the local input, update and
/// offsets. Offsets are clamped against the global shape, as the
/// unpartitioned op does; each device writes the part of the update that
/// falls in its block.
mlir::Value buildLocalDynamicUpdateSlice(LocalBuilder &local,
                                         xla::DynamicUpdateSliceOp op,
                                         mlir::Value input, mlir::Value update,
                                         mlir::ValueRange offsets,
                                         const ShardLayout &inputLayout,
                                         const ShardLayout &updateLayout,
                                         const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_DYNAMICUPDATE_H
