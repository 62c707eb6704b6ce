//===- Halo.h - windows across shard boundaries -----------------*- C++ -*-===//
//
// Windowed ops (slice with offsets or strides, edge padding, convolution)
// read, for each output block, a window of the input that may start or end
// in a neighbouring device's block. The device with shard index k (of n)
// along a dimension needs input elements [k*step + start, k*step + start +
// size): it receives the missing ends from its neighbours with
// collective-permutes (a halo exchange), fills what lies outside the global
// tensor with the op's padding value, and slices its window at an offset
// computed from its mesh coordinates.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_HALO_H
#define XSPMD_PASSES_PARTITION_HALO_H

#include "passes/partition/LocalBuilder.h"

#include <optional>

namespace xspmd::partition {

struct Window {
  int64_t step;
  int64_t start;
  int64_t size;
};

struct HaloSizes {
  int64_t left = 0;
  int64_t right = 0;
};

/// Halo sizes for `window` over `numShards` input blocks of `block`
/// elements, or nothing when a window reaches past the immediate neighbours.
std::optional<HaloSizes> haloSizes(const Window &window, int64_t numShards,
                                   int64_t block);

/// What the halo exchange of `window` costs in the planner's units (bytes
/// each device sends, weighted by `byteCost`, plus a fixed cost per
/// collective) for an input laid out in `numShards` blocks of `block`
/// elements along the windowed dimension, `blockBytes` bytes in all. The
/// window must fit (haloSizes).
double haloExchangeCost(const Window &window, int64_t numShards, int64_t block,
                        double blockBytes, double byteCost,
                        const ReshardCostModel &costs);

/// The window of `local` (laid out by `layout`, global size `globalSize`
/// along `dim`) each device needs: a tensor whose `dim` has `window.size`
/// elements; elements outside [0, globalSize) are `fill`. The window must
/// fit (haloSizes).
mlir::Value buildWindow(LocalBuilder &local, mlir::Location loc,
                        mlir::Value value, const ShardLayout &layout,
                        const MeshModel &mesh, int64_t dim, int64_t globalSize,
                        const Window &window, mlir::TypedAttr fill);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_HALO_H
