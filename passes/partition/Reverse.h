//===- Reverse.h - reverse along split dimensions ---------------*- C++ -*-===//
//
// Reversing a dimension split into n blocks sends data across devices: the
// result block k is the mirror of an input block near n-1-k. With the
// dimension padded (P = n B elements for S real ones, p = P - S = q B + r,
// 0 <= r < B), result block k holds input elements [S - (k+1) B, S - k B),
// reversed: the last r elements of input block n-2-q-k followed by the first
// B - r of block n-1-q-k. Each device therefore takes part in at most two
// collective_permutes along the dimension's axes (one when r = 0, e.g. when
// the dimension divides evenly: block k <- block n-1-k), then reverses its
// window locally. Devices a pair does not reach hold only padding of the
// result. docs/partitioning.md compares this with gathering the dimension.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_REVERSE_H
#define XSPMD_PASSES_PARTITION_REVERSE_H

#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

/// What the collective_permutes of a reverse whose input is laid out by
/// `layout` cost in the planner's units (bytes each device sends, weighted
/// by link class, plus a fixed cost per collective): 0 when no reversed
/// dimension is split.
double mirrorExchangeCost(xla::ReverseOp op, const ShardLayout &layout,
                          const MeshModel &mesh, const ReshardCostModel &costs);

/// The local result of `op` given its local `input` laid out by `layout`;
/// the result has the same layout.
mlir::Value buildLocalReverse(LocalBuilder &local, xla::ReverseOp op,
                              mlir::Value input, const ShardLayout &layout,
                              const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_REVERSE_H
