//===- Concatenate.cpp - concatenate along a split dimension --------------===//

#include "passes/partition/Concatenate.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {
namespace {

/// Sizes of the operands along the concatenated dimension.
SmallVector<int64_t> operandSizes(ConcatenateOp op) {
  SmallVector<int64_t> sizes;
  for (Value input : op.getInputs())
    sizes.push_back(cast<RankedTensorType>(input.getType())
                        .getDimSize(static_cast<int64_t>(op.getDim())));
  return sizes;
}

} // namespace

std::optional<BlockMoves> concatBlockMoves(ConcatenateOp op, unsigned operand,
                                           int64_t numShards, int64_t block,
                                           int64_t resultBlock) {
  SmallVector<int64_t> sizes = operandSizes(op);
  int64_t offset = 0;
  for (unsigned i = 0; i < operand; ++i)
    offset += sizes[i];
  int64_t size = sizes[operand];
  if (block == 0 || resultBlock % block != 0 || offset % block != 0)
    return std::nullopt;
  BlockMoves moves(resultBlock / block);
  for (auto [slot, pairs] : llvm::enumerate(moves))
    for (int64_t k = 0; k < numShards; ++k) {
      // The operand position of the slot's first row in result block k: a
      // block boundary, since blocks line up.
      int64_t position = k * resultBlock + slot * block - offset;
      if (position >= 0 && position < size)
        pairs.push_back({position / block, k});
    }
  return moves;
}

std::optional<HaloSizes> concatHaloSizes(ConcatenateOp op, unsigned operand,
                                         int64_t numShards, int64_t block,
                                         int64_t resultBlock) {
  SmallVector<int64_t> sizes = operandSizes(op);
  int64_t offset = 0;
  for (unsigned i = 0; i < operand; ++i)
    offset += sizes[i];
  int64_t size = sizes[operand];
  HaloSizes halo;
  for (int64_t k = 0; k < numShards; ++k) {
    // The operand positions result block k holds, clipped to the operand.
    int64_t lo = std::max<int64_t>(0, k * resultBlock - offset);
    int64_t hi = std::min(size, k * resultBlock + resultBlock - offset);
    if (lo >= hi)
      continue;
    halo.left = std::max(halo.left, k * block - lo);
    halo.right = std::max(halo.right, hi - (k + 1) * block);
  }
  if (halo.left > block || halo.right > block)
    return std::nullopt;
  return halo;
}

ShardLayout gatheredAlong(const ShardLayout &layout, int64_t dim,
                          int64_t size) {
  ShardLayout gathered = layout;
  gathered.dimAxes[dim].clear();
  gathered.paddedSize[dim] = size;
  return gathered;
}

ConcatSourcePrice priceConcatSource(
    ConcatenateOp op, const FactorAssignment &assignment, unsigned i,
    const MeshModel &mesh, const ReshardCostModel &costs,
    function_ref<double(unsigned, const ShardLayout &)> reshardCost) {
  int64_t dim = op.getDim();
  int64_t resultBlock = assignment.results[0].localShape(mesh)[dim];
  const ShardLayout &layout = assignment.operands[i];
  auto type = cast<RankedTensorType>(op.getInputs()[i].getType());
  int64_t shards = layout.numShards(mesh, dim);
  int64_t block = layout.localShape(mesh)[dim];
  ConcatSourcePrice price;
  price.halo = block == 0 ? std::optional<HaloSizes>(HaloSizes())
                          : concatHaloSizes(op, i, shards, block, resultBlock);
  if (price.halo) {
    double blockBytes = static_cast<double>(layout.localElements(mesh)) *
                        ((type.getElementTypeBitWidth() + 7) / 8);
    double byteCost = costs.byteCost(mesh.linkOf(layout.dimAxes[dim]));
    for (int64_t rows : {price.halo->left, price.halo->right})
      if (rows > 0)
        price.haloCost +=
            costs.perCollectiveCost + blockBytes * static_cast<double>(rows) /
                                          static_cast<double>(block) * byteCost;
    price.haloCost += reshardCost(i, layout);
  }
  price.moves = concatBlockMoves(op, i, shards, block, resultBlock);
  if (price.moves) {
    double blockBytes = static_cast<double>(layout.localElements(mesh)) *
                        ((type.getElementTypeBitWidth() + 7) / 8);
    double byteCost = costs.byteCost(mesh.linkOf(layout.dimAxes[dim]));
    // A slot whose blocks all stay where they are costs nothing.
    for (ArrayRef<std::pair<int64_t, int64_t>> pairs : *price.moves)
      if (llvm::any_of(pairs, [](auto p) { return p.first != p.second; }))
        price.blocksCost += costs.perCollectiveCost + blockBytes * byteCost;
    price.blocksCost += reshardCost(i, layout);
  }
  price.gatherCost =
      reshardCost(i, gatheredAlong(layout, dim, type.getDimSize(dim)));
  return price;
}

double ConcatSourcePrice::of(ConcatExchange::Source::Kind kind) const {
  switch (kind) {
  case ConcatExchange::Source::Kind::halo:
    return haloCost;
  case ConcatExchange::Source::Kind::blocks:
    return blocksCost;
  case ConcatExchange::Source::Kind::gather:
    return gatherCost;
  }
  return gatherCost;
}

ConcatExchange planConcatExchange(
    ConcatenateOp op, const FactorAssignment &assignment, const MeshModel &mesh,
    const ReshardCostModel &costs, HaloMode mode,
    function_ref<double(unsigned, const ShardLayout &)> reshardCost) {
  ConcatExchange exchange;
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i) {
    ConcatSourcePrice price =
        priceConcatSource(op, assignment, i, mesh, costs, reshardCost);
    using Kind = ConcatExchange::Source::Kind;
    ConcatExchange::Source source;
    if (price.halo)
      source.halo = *price.halo;
    if (price.moves)
      source.moves = *price.moves;
    source.haloDoesNotFit = !price.halo;
    // halo=never gathers, halo=always exchanges halos whenever they fit;
    // auto also weighs block moves and keeps the cheapest (ties: the
    // earlier of halo, blocks, gather).
    source.kind =
        price.halo && mode != HaloMode::never ? Kind::halo : Kind::gather;
    if (mode == HaloMode::automatic)
      for (Kind kind : {Kind::blocks, Kind::gather})
        if ((kind != Kind::blocks || price.moves) &&
            price.of(kind) < price.of(source.kind))
          source.kind = kind;
    exchange.cost += price.of(source.kind);
    exchange.sources.push_back(source);
  }
  return exchange;
}

Value buildLocalConcat(LocalBuilder &local, ConcatenateOp op,
                       ArrayRef<Value> operands,
                       const FactorAssignment &assignment,
                       const ConcatExchange &exchange, const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  int64_t dim = op.getDim();
  const ShardLayout &resultLayout = assignment.results[0];
  auto resultType = op.getType().clone(resultLayout.localShape(mesh));
  int64_t resultBlock = resultType.getDimSize(dim);
  Value k = local.shardIndex(loc, resultLayout, dim);
  // The global result index of every local position along `dim`.
  auto indexType = resultType.clone(b.getI32Type());
  Value position = AddOp::create(
      b, loc, IotaOp::create(b, loc, indexType, dim),
      BroadcastInDimOp::create(
          b, loc, indexType,
          MulOp::create(b, loc, k, local.scalarI32(loc, resultBlock)),
          b.getDenseI64ArrayAttr({})));

  SmallVector<int64_t> sizes = operandSizes(op);
  Value result;
  int64_t offset = 0;
  for (auto [i, value] : llvm::enumerate(operands)) {
    int64_t size = sizes[i];
    const ConcatExchange::Source &source = exchange.sources[i];
    if (size == 0)
      continue;
    // `extended` holds the operand's positions [start, start + length).
    Value extended = value, start = local.scalarI32(loc, 0);
    if (source.kind == ConcatExchange::Source::Kind::blocks) {
      // Each slot of the result block receives its operand block whole
      // (zeros, never selected, where no block lands), so `extended` holds
      // positions [kR - offset, kR - offset + R).
      const ShardLayout &layout = assignment.operands[i];
      SmallVector<Value> slots;
      for (ArrayRef<std::pair<int64_t, int64_t>> pairs : source.moves)
        slots.push_back(
            llvm::all_of(pairs, [](auto p) { return p.first == p.second; })
                ? value
                : local.permuteShards(loc, value, layout, dim, pairs));
      extended = slots.size() == 1
                     ? slots.front()
                     : ConcatenateOp::create(b, loc, slots, dim).getResult();
      start = SubOp::create(
          b, loc, MulOp::create(b, loc, k, local.scalarI32(loc, resultBlock)),
          local.scalarI32(loc, offset));
    } else if (source.kind == ConcatExchange::Source::Kind::halo) {
      const ShardLayout &layout = assignment.operands[i];
      int64_t block = cast<RankedTensorType>(value.getType()).getDimSize(dim);
      int64_t shards = layout.numShards(mesh, dim);
      auto shift = [&](Value part, bool right) {
        SmallVector<std::pair<int64_t, int64_t>> pairs;
        for (int64_t p = 0; p + 1 < shards; ++p)
          pairs.push_back(right ? std::make_pair(p, p + 1)
                                : std::make_pair(p + 1, p));
        return local.permuteShards(loc, part, layout, dim, pairs);
      };
      SmallVector<Value> parts;
      if (source.halo.left > 0)
        parts.push_back(
            shift(local.sliceDim(loc, value, dim, block - source.halo.left,
                                 source.halo.left),
                  /*right=*/true));
      parts.push_back(value);
      if (source.halo.right > 0)
        parts.push_back(
            shift(local.sliceDim(loc, value, dim, 0, source.halo.right),
                  /*right=*/false));
      if (parts.size() > 1)
        extended = ConcatenateOp::create(b, loc, parts, dim);
      start = SubOp::create(
          b, loc, MulOp::create(b, loc, k, local.scalarI32(loc, block)),
          local.scalarI32(loc, source.halo.left));
    }
    // Pad by a result block on both sides so that a window wholly outside
    // `extended` (a device holding none of this operand) reads zeros, which
    // the selection below never picks.
    auto extType = cast<RankedTensorType>(extended.getType());
    int64_t length = extType.getDimSize(dim);
    int64_t rank = extType.getRank();
    SmallVector<int64_t> zeros(rank, 0), pad(rank, 0);
    pad[dim] = resultBlock;
    SmallVector<int64_t> paddedShape(extType.getShape());
    paddedShape[dim] += 2 * resultBlock;
    Value padded =
        PadOp::create(b, loc, extType.clone(paddedShape), extended,
                      b.getDenseI64ArrayAttr(pad), b.getDenseI64ArrayAttr(pad),
                      b.getDenseI64ArrayAttr(zeros), b.getF64FloatAttr(0.0));
    // The window starts at operand position k*R - offset, i.e. at
    // (k*R - offset - start) in `extended`, clamped to the padding.
    Value relative = SubOp::create(
        b, loc,
        SubOp::create(
            b, loc, MulOp::create(b, loc, k, local.scalarI32(loc, resultBlock)),
            local.scalarI32(loc, offset)),
        start);
    relative = MinOp::create(
        b, loc,
        MaxOp::create(b, loc, relative, local.scalarI32(loc, -resultBlock)),
        local.scalarI32(loc, length));
    relative =
        AddOp::create(b, loc, relative, local.scalarI32(loc, resultBlock));
    SmallVector<Value> offsets;
    for (int64_t d = 0; d < rank; ++d)
      offsets.push_back(d == dim ? relative : local.scalarI32(loc, 0));
    SmallVector<int64_t> windowShape(resultType.getShape());
    Value window = DynamicSliceOp::create(b, loc, resultType, padded, offsets,
                                          b.getDenseI64ArrayAttr(windowShape));
    if (!result) {
      result = window;
    } else {
      // Result indices from `offset` on come from this operand (later
      // operands override further on).
      auto predType = resultType.clone(b.getI1Type());
      Value from = local.splat(loc, indexType, b.getI32IntegerAttr(offset));
      Value mine = CompareOp::create(b, loc, predType, CompareDirection::ge,
                                     position, from);
      result = SelectOp::create(b, loc, mine, window, result);
    }
    offset += size;
  }
  if (!result) // every operand is empty, and so is the result
    result = local.splat(loc, resultType,
                         b.getZeroAttr(resultType.getElementType()));
  return result;
}

} // namespace xspmd::partition
