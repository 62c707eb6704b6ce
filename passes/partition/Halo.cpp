//===- Halo.cpp - windows across shard boundaries -------------------------===//

#include "passes/partition/Halo.h"

#include "dialects/xla/XlaOps.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

std::optional<HaloSizes> haloSizes(const Window &window, int64_t numShards,
                                   int64_t block) {
  // The window's start relative to the device's own block is linear in k,
  // so its extremes are at the first and the last shard.
  auto relative = [&](int64_t k) {
    return k * (window.step - block) + window.start;
  };
  int64_t first = relative(0), last = relative(numShards - 1);
  HaloSizes halo;
  halo.left = std::max<int64_t>(0, -std::min(first, last));
  halo.right =
      std::max<int64_t>(0, std::max(first, last) + window.size - block);
  if (halo.left > block || halo.right > block)
    return std::nullopt;
  return halo;
}

double haloExchangeCost(const Window &window, int64_t numShards, int64_t block,
                        double blockBytes, double byteCost,
                        const ReshardCostModel &costs) {
  std::optional<HaloSizes> halo = haloSizes(window, numShards, block);
  assert(halo && "window reaches past the neighbouring blocks");
  if (numShards < 2 || block == 0)
    return 0;
  double cost = 0;
  for (int64_t rows : {halo->left, halo->right})
    if (rows > 0)
      cost += costs.perCollectiveCost + blockBytes * static_cast<double>(rows) /
                                            static_cast<double>(block) *
                                            byteCost;
  return cost;
}

Value buildWindow(LocalBuilder &local, Location loc, Value value,
                  const ShardLayout &layout, const MeshModel &mesh, int64_t dim,
                  int64_t globalSize, const Window &window, TypedAttr fill) {
  OpBuilder &b = local.getBuilder();
  auto type = cast<RankedTensorType>(value.getType());
  int64_t block = type.getDimSize(dim);
  int64_t shards = layout.numShards(mesh, dim);
  std::optional<HaloSizes> halo = haloSizes(window, shards, block);
  assert(halo && "window reaches past the neighbouring blocks");

  // Neighbours along the dimension are adjacent shard indices.
  auto shift = [&](Value part, int64_t towards) {
    SmallVector<std::pair<int64_t, int64_t>> pairs;
    for (int64_t p = 0; p + 1 < shards; ++p)
      pairs.push_back(towards > 0 ? std::make_pair(p, p + 1)
                                  : std::make_pair(p + 1, p));
    return local.permuteShards(loc, part, layout, dim, pairs);
  };
  SmallVector<Value> parts;
  if (halo->left > 0) // my left halo is the end of the previous block
    parts.push_back(shift(
        local.sliceDim(loc, value, dim, block - halo->left, halo->left), 1));
  parts.push_back(value);
  if (halo->right > 0) // my right halo is the start of the next block
    parts.push_back(shift(local.sliceDim(loc, value, dim, 0, halo->right), -1));
  Value extended = value;
  if (parts.size() > 1)
    extended = ConcatenateOp::create(b, loc, parts, dim);
  auto extType = cast<RankedTensorType>(extended.getType());

  // Elements outside the global tensor (before 0, or padding past its end)
  // take the fill value.
  Value base = SubOp::create(b, loc, local.blockOffset(loc, layout, dim),
                             local.scalarI32(loc, halo->left));
  auto indexType = extType.clone(b.getI32Type());
  auto predType = extType.clone(b.getI1Type());
  Value position =
      AddOp::create(b, loc, IotaOp::create(b, loc, indexType, dim),
                    BroadcastInDimOp::create(b, loc, indexType, base,
                                             b.getDenseI64ArrayAttr({})));
  Value zero = local.splat(loc, indexType, b.getI32IntegerAttr(0));
  Value limit = local.splat(loc, indexType, b.getI32IntegerAttr(globalSize));
  Value inside = AndOp::create(
      b, loc,
      CompareOp::create(b, loc, predType, CompareDirection::ge, position, zero),
      CompareOp::create(b, loc, predType, CompareDirection::lt, position,
                        limit));
  extended = SelectOp::create(b, loc, inside, extended,
                              local.splat(loc, extType, fill));

  // This device's window starts at k*(step - block) + start + left halo.
  Value k = local.shardIndex(loc, layout, dim);
  Value offset = AddOp::create(
      b, loc,
      MulOp::create(b, loc, k, local.scalarI32(loc, window.step - block)),
      local.scalarI32(loc, window.start + halo->left));
  SmallVector<Value> offsets;
  for (int64_t d = 0; d < extType.getRank(); ++d)
    offsets.push_back(d == dim ? offset : local.scalarI32(loc, 0));
  SmallVector<int64_t> sizes(extType.getShape());
  sizes[dim] = window.size;
  return DynamicSliceOp::create(b, loc, extType.clone(sizes), extended, offsets,
                                b.getDenseI64ArrayAttr(sizes));
}

} // namespace xspmd::partition
