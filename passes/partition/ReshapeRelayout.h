//===- ReshapeRelayout.h - reshape between contiguous blocks ----*- C++ -*-===//
//
// A layout that splits one dimension, with every dimension before it of
// size 1, gives each device a contiguous range of the flattened tensor:
// block k of n holds flat elements [kB, (k+1)B). A reshape from one such
// layout to another over the same axes ([10,6] rows split 4 ways to [6,10]
// rows split 4 ways: flat blocks of 18 to blocks of 20) is a window of the
// flattened input: each device needs [kB', (k+1)B'), which lies in its own
// block and its neighbours' when B and B' are close. It then receives the
// ends it lacks by a halo exchange on the flattened block (Halo.h) instead
// of the factor rule's gather and re-slice.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_RESHAPERELAYOUT_H
#define XSPMD_PASSES_PARTITION_RESHAPERELAYOUT_H

#include "passes/partition/Halo.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

struct FlatRelayout {
  /// The window of the flattened input each device needs.
  Window window;
  /// The flattened input's layout (rank 1).
  ShardLayout flatLayout;
  /// The halo exchange's cost in the planner's units.
  double cost = 0;
};

/// The flat halo exchange that reshapes `op`'s input laid out as `in` to its
/// result laid out as `out`, if both are contiguous splits over the same
/// axes and the windows reach only the neighbours' blocks.
std::optional<FlatRelayout> planFlatRelayout(xla::ReshapeOp op,
                                             const ShardLayout &in,
                                             const ShardLayout &out,
                                             const MeshModel &mesh,
                                             const ReshardCostModel &costs);

/// The local result of `op` (laid out as `out`) from its local `input`.
mlir::Value buildFlatRelayout(LocalBuilder &local, xla::ReshapeOp op,
                              mlir::Value input, const FlatRelayout &plan,
                              const ShardLayout &out, const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_RESHAPERELAYOUT_H
