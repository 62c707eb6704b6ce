//===- Reverse.cpp - reverse along split dimensions -----------------------===//

#include "passes/partition/Reverse.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {
namespace {

using Pairs = SmallVector<std::pair<int64_t, int64_t>>;

/// `size` elements from `begin` of each device's block, sent along `pairs`
/// ([source, target] shard indices).
struct MirrorPart {
  int64_t begin;
  int64_t size;
  Pairs pairs;
  /// False when every pair is a device sending to itself (or there is none):
  /// the part stays where it is.
  bool moves() const {
    return llvm::any_of(pairs, [](auto p) { return p.first != p.second; });
  }
};

/// The parts of each device's mirror window along a dimension of `globalSize`
/// elements split into `shards` blocks of `block`, in the order they are
/// concatenated (the file comment of Reverse.h derives them).
SmallVector<MirrorPart, 2> mirrorParts(int64_t shards, int64_t block,
                                       int64_t globalSize) {
  int64_t padding = shards * block - globalSize;
  int64_t q = padding / block, r = padding % block;
  // Block s goes to the device whose mirror it is: s -> last - s.
  auto mirrored = [](int64_t last) {
    Pairs pairs;
    for (int64_t s = 0; s <= last; ++s)
      pairs.push_back({s, last - s});
    return pairs;
  };
  SmallVector<MirrorPart, 2> parts;
  if (r > 0) // the tail of the block before the mirror block
    parts.push_back({block - r, r, mirrored(shards - 2 - q)});
  parts.push_back({0, block - r, mirrored(shards - 1 - q)});
  return parts;
}

} // namespace

double mirrorExchangeCost(ReverseOp op, const ShardLayout &layout,
                          const MeshModel &mesh,
                          const ReshardCostModel &costs) {
  RankedTensorType type = op.getType();
  double elementBytes = (type.getElementTypeBitWidth() + 7) / 8;
  double localBytes =
      static_cast<double>(layout.localElements(mesh)) * elementBytes;
  SmallVector<int64_t> localShape = layout.localShape(mesh);
  double cost = 0;
  for (int64_t d : op.getDims()) {
    int64_t block = localShape[d];
    if (layout.dimAxes[d].empty() || block == 0)
      continue;
    double byteCost = costs.byteCost(mesh.linkOf(layout.dimAxes[d]));
    for (const MirrorPart &part :
         mirrorParts(layout.numShards(mesh, d), block, type.getDimSize(d)))
      if (part.moves())
        cost += costs.perCollectiveCost +
                localBytes * static_cast<double>(part.size) /
                    static_cast<double>(block) * byteCost;
  }
  return cost;
}

Value buildLocalReverse(LocalBuilder &local, ReverseOp op, Value input,
                        const ShardLayout &layout, const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  ArrayRef<int64_t> globalShape = op.getType().getShape();
  for (int64_t d : op.getDims()) {
    int64_t block = cast<RankedTensorType>(input.getType()).getDimSize(d);
    if (layout.dimAxes[d].empty() || block == 0)
      continue;
    // Gather this device's mirror window, in input order.
    SmallVector<Value, 2> pieces;
    for (const MirrorPart &part :
         mirrorParts(layout.numShards(mesh, d), block, globalShape[d])) {
      Value piece = part.size == block
                        ? input
                        : local.sliceDim(loc, input, d, part.begin, part.size);
      if (part.moves())
        piece = local.permuteShards(loc, piece, layout, d, part.pairs);
      pieces.push_back(piece);
    }
    input = pieces.size() == 1
                ? pieces.front()
                : ConcatenateOp::create(b, loc, pieces, d).getResult();
  }
  return ReverseOp::create(b, loc, input.getType(), input, op.getDimsAttr());
}

} // namespace xspmd::partition
