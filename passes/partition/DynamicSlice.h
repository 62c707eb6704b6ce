//===- DynamicSlice.h - dynamic_slice across split dimensions ---*- C++ -*-===//
//
// A dynamic_slice that takes part of a dimension at a run-time offset needs
// that dimension whole in its sharding rule, so a split input is gathered.
// When the slice is small, each device can instead take the part of the
// window that lies in its own block (zeros elsewhere): the result is then a
// pending sum over the dimension's axes, and one all-reduce (or
// reduce-scatter) of the small result replaces the gather of the input
// (GSPMD's masked dynamic-slice). The partitioner prices both.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_DYNAMICSLICE_H
#define XSPMD_PASSES_PARTITION_DYNAMICSLICE_H

#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

/// The layout of `op`'s local result when its input stays laid out as
/// `input`: dimensions the slice takes whole keep their split; dimensions
/// it takes part of become pending-sum axes. Nothing when no partly taken
/// dimension is split, the input is pending, or elements are i1.
std::optional<ShardLayout> maskedSliceLayout(xla::DynamicSliceOp op,
                                             const ShardLayout &input,
                                             const MeshModel &mesh);

/// The local result of `op` (laid out as maskedSliceLayout says) from its
/// local `input` laid out as `inputLayout` and its (global, scalar)
/// `offsets`.
mlir::Value buildMaskedDynamicSlice(LocalBuilder &local, xla::DynamicSliceOp op,
                                    mlir::Value input, mlir::ValueRange offsets,
                                    const ShardLayout &inputLayout,
                                    const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_DYNAMICSLICE_H
