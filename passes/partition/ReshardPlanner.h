//===- ReshardPlanner.h - cheapest collectives between layouts --*- C++ -*-===//
//
// Finds, for any source and target layout of a tensor over one mesh, a
// sequence of collective steps that turns one into the other, and picks the
// cheapest by the bytes each device sends, weighted by the link class of the
// axes they travel on (a DCN byte costs more than an ICI byte).
//
// The search is a shortest path over layouts. A step is one of:
//   all-reduce      reduce partial axes (every member gets the result)
//   reduce-scatter  reduce a partial axis and split a dimension by it
//   all-gather      drop the minor-most axis of a dimension
//   all-slice       split a dimension further by an unused axis (local)
//   all-to-all      move the minor-most axes of one dimension to another
//   permute         reach a layout with the same local shape by sending each
//                   device's block to the devices that need it
//   repad           change the padded size of an unsplit dimension (local)
//   make-partial    turn a value into a pending reduction (local)
// Every target is reachable (reduce, gather all, repad, slice), so there is
// no "no pattern found" failure.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_RESHARDPLANNER_H
#define XSPMD_PASSES_PARTITION_RESHARDPLANNER_H

#include "dialects/xla/XlaShardLayout.h"

#include "llvm/ADT/StringMap.h"

#include <array>
#include <memory>
#include <utility>

namespace xspmd::partition {

using xla::MeshModel;
using xla::paddedDimSize;
using xla::ShardLayout;

enum class ReshardKind {
  AllReduce,
  ReduceScatter,
  AllGather,
  AllSlice,
  AllToAll,
  /// Two all-to-alls that move an axis that is not the minor-most of its
  /// dimension (see AllToAllPairPart).
  AllToAllPair,
  Permute,
  Repad,
  MakePartial,
};

llvm::StringRef stringifyReshardKind(ReshardKind kind);

struct ReshardStep {
  ReshardKind kind;
  /// The dimension gathered, sliced, scattered into or repadded; for
  /// all-to-all the dimension the axis leaves (the concat dimension).
  int64_t dim = -1;
  /// all-to-all: the dimension the axis joins (the split dimension).
  /// all-to-all pair: the other dimension (`dim` holds both axes on one side).
  int64_t toDim = -1;
  /// all-to-all pair: whether axis a joins `dim` (else it leaves it).
  bool inward = false;
  /// The axes the step runs over (all-reduce: the axes reduced).
  llvm::SmallVector<int, 2> axes;
  ShardLayout before, after;
  /// Bytes each device sends, and over which links.
  int64_t bytesPerDevice = 0;
  xla::LinkClass link = xla::LinkClass::ici;
  /// Whether the step communicates at all.
  bool communicates() const;
  /// How many collectives the step emits when it communicates.
  int numCollectives() const;
};

/// One all-to-all of an AllToAllPair step: over `axis`, splitting
/// `splitDim` and concatenating along `concatDim`.
struct AllToAllPairPart {
  int64_t splitDim;
  int64_t concatDim;
  int axis;
};

/// The two all-to-alls of an AllToAllPair step over axes {a, b} of equal
/// size. Outward, `dim` goes from [..., a, b] to [..., b] and `toDim` gains a
/// as its minor-most axis: a moves to `toDim` (the blocks of `dim` left are
/// those of every a and one b, strided), then b exchanges them within `dim`
/// (the i-th of b's strided blocks goes to b = i, making them contiguous).
/// Inward is the reverse. Each sends (n-1)/n of the block.
std::array<AllToAllPairPart, 2> allToAllPairParts(const ReshardStep &step);

struct ReshardPlan {
  std::vector<ReshardStep> steps;
  double cost = 0;
};

/// Relative cost of one byte on each link class, plus a fixed cost per
/// collective (in byte-equivalents) that prefers fewer, larger collectives.
struct ReshardCostModel {
  double iciByteCost = 1.0;
  double dcnByteCost = 16.0;
  double perCollectiveCost = 256.0;
  double byteCost(xla::LinkClass link) const {
    return link == xla::LinkClass::ici ? iciByteCost : dcnByteCost;
  }
};

class ReshardPlanner {
public:
  ReshardPlanner(MeshModel mesh, ReshardCostModel costs = {})
      : mesh(std::move(mesh)), costs(costs) {}

  /// The cheapest plan from `source` to `target` for a tensor of global
  /// `shape` with `elementBytes`-byte elements. Plans are cached.
  const ReshardPlan &plan(llvm::ArrayRef<int64_t> shape, int64_t elementBytes,
                          const ShardLayout &source, const ShardLayout &target);

  const MeshModel &getMesh() const { return mesh; }
  const ReshardCostModel &getCosts() const { return costs; }

private:
  MeshModel mesh;
  ReshardCostModel costs;
  llvm::StringMap<std::unique_ptr<ReshardPlan>> cache;
};

/// Source device of every device for a permute step: `result[d]` is the
/// device whose block device `d` needs (possibly itself). The mapping is a
/// permutation.
llvm::SmallVector<int64_t> permuteSources(const MeshModel &mesh,
                                          const ShardLayout &before,
                                          const ShardLayout &after);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_RESHARDPLANNER_H
