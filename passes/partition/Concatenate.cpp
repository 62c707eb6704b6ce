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

/// Where operand `operand` starts in the result along the concatenated
/// dimension, and its size there.
std::pair<int64_t, int64_t> operandSpan(ConcatenateOp op, unsigned operand) {
  SmallVector<int64_t> sizes = operandSizes(op);
  int64_t offset = 0;
  for (unsigned i = 0; i < operand; ++i)
    offset += sizes[i];
  return {offset, sizes[operand]};
}

} // namespace

std::optional<BlockMoves> concatBlockMoves(ConcatenateOp op, unsigned operand,
                                           int64_t numShards, int64_t block,
                                           int64_t resultBlock) {
  auto [offset, size] = operandSpan(op, operand);
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
  auto [offset, size] = operandSpan(op, operand);
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
  }
  price.moves = concatBlockMoves(op, i, shards, block, resultBlock);
  if (price.halo || price.moves)
    price.reshardCost = reshardCost(i, layout);
  if (price.moves) {
    double blockBytes = static_cast<double>(layout.localElements(mesh)) *
                        ((type.getElementTypeBitWidth() + 7) / 8);
    double byteCost = costs.byteCost(mesh.linkOf(layout.dimAxes[dim]));
    // A slot whose blocks all stay where they are costs nothing.
    for (ArrayRef<std::pair<int64_t, int64_t>> pairs : *price.moves)
      if (llvm::any_of(pairs, [](auto p) { return p.first != p.second; }))
        price.blocksCost += costs.perCollectiveCost + blockBytes * byteCost;
    price.blocksCost += price.reshardCost;
  }
  if (price.halo)
    price.haloCost += price.reshardCost;
  price.gatherCost =
      reshardCost(i, gatheredAlong(layout, dim, type.getDimSize(dim)));
  return price;
}

namespace {

/// The (operand, slot) parts whose blocks move (a pair leaves its device),
/// grouped greedily into permutes with distinct sources and distinct
/// targets, among operands with blocks of one shape.
SmallVector<ConcatExchange::BlockPermute>
mergeBlockMoves(const FactorAssignment &assignment,
                const ConcatExchange &exchange, const MeshModel &mesh) {
  SmallVector<ConcatExchange::BlockPermute> permutes;
  SmallVector<SmallVector<int64_t>> blockShapes;
  for (auto [i, source] : llvm::enumerate(exchange.sources)) {
    if (source.kind != ConcatExchange::Source::Kind::blocks)
      continue;
    SmallVector<int64_t> shape = assignment.operands[i].localShape(mesh);
    for (auto [slot, pairs] : llvm::enumerate(source.moves)) {
      if (llvm::all_of(pairs, [](auto p) { return p.first == p.second; }))
        continue;
      auto fits = [&](const ConcatExchange::BlockPermute &permute) {
        return llvm::none_of(pairs, [&](auto p) {
          return llvm::any_of(permute.pairs, [&](auto q) {
            return p.first == q.first || p.second == q.second;
          });
        });
      };
      unsigned g = 0;
      for (; g < permutes.size(); ++g)
        if (blockShapes[g] == shape && fits(permutes[g]))
          break;
      if (g == permutes.size()) {
        permutes.emplace_back();
        blockShapes.push_back(shape);
      }
      permutes[g].parts.push_back(
          {static_cast<unsigned>(i), static_cast<unsigned>(slot)});
      llvm::append_range(permutes[g].pairs, pairs);
    }
  }
  for (ConcatExchange::BlockPermute &permute : permutes)
    llvm::sort(permute.pairs);
  return permutes;
}

} // namespace

double priceConcatExchange(
    ConcatenateOp op, const FactorAssignment &assignment,
    const ConcatExchange &exchange, const MeshModel &mesh,
    const ReshardCostModel &costs,
    function_ref<double(unsigned, const ShardLayout &)> reshardCost) {
  using Kind = ConcatExchange::Source::Kind;
  int64_t dim = op.getDim();
  double cost = 0;
  for (auto [i, source] : llvm::enumerate(exchange.sources)) {
    ConcatSourcePrice price =
        priceConcatSource(op, assignment, i, mesh, costs, reshardCost);
    cost +=
        source.kind == Kind::blocks ? price.reshardCost : price.of(source.kind);
  }
  for (const ConcatExchange::BlockPermute &permute : exchange.permutes) {
    unsigned i = permute.parts.front().first;
    const ShardLayout &layout = assignment.operands[i];
    auto type = cast<RankedTensorType>(op.getInputs()[i].getType());
    double blockBytes = static_cast<double>(layout.localElements(mesh)) *
                        ((type.getElementTypeBitWidth() + 7) / 8);
    cost += costs.perCollectiveCost +
            blockBytes * costs.byteCost(mesh.linkOf(layout.dimAxes[dim]));
  }
  return cost;
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
  using Kind = ConcatExchange::Source::Kind;
  ConcatExchange exchange, allBlocks;
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i) {
    ConcatSourcePrice price =
        priceConcatSource(op, assignment, i, mesh, costs, reshardCost);
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
    exchange.sources.push_back(source);
    if (price.moves)
      source.kind = Kind::blocks;
    allBlocks.sources.push_back(source);
  }
  // Merged, block moves may win where each operand's alone did not: weigh
  // moving every operand that can be moved as blocks too.
  auto price = [&](ConcatExchange &candidate) {
    candidate.permutes = mergeBlockMoves(assignment, candidate, mesh);
    candidate.cost = priceConcatExchange(op, assignment, candidate, mesh, costs,
                                         reshardCost);
  };
  price(exchange);
  if (mode == HaloMode::automatic) {
    price(allBlocks);
    if (allBlocks.cost < exchange.cost)
      return allBlocks;
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

  // The merged block permutes: each device sends the block of the part it
  // is a source of (selected by its shard index along `dim`).
  SmallVector<Value> received;
  for (const ConcatExchange::BlockPermute &permute : exchange.permutes) {
    const ShardLayout &layout = assignment.operands[permute.parts[0].first];
    Value send = operands[permute.parts[0].first];
    if (permute.parts.size() > 1) {
      Value shard = local.shardIndex(loc, layout, dim);
      auto scalarPred = RankedTensorType::get({}, b.getI1Type());
      auto blockType = cast<RankedTensorType>(send.getType());
      for (auto [operand, slot] : llvm::drop_begin(permute.parts)) {
        Value mine;
        for (auto [from, to] : exchange.sources[operand].moves[slot]) {
          Value is = CompareOp::create(b, loc, scalarPred, CompareDirection::eq,
                                       shard, local.scalarI32(loc, from));
          mine = mine ? OrOp::create(b, loc, mine, is).getResult() : is;
        }
        Value pred =
            BroadcastInDimOp::create(b, loc, blockType.clone(b.getI1Type()),
                                     mine, b.getDenseI64ArrayAttr({}));
        send = SelectOp::create(b, loc, pred, operands[operand], send);
      }
    }
    received.push_back(
        local.permuteShards(loc, send, layout, dim, permute.pairs));
  }

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
      // (zeros or another part's block, never selected, where none of this
      // operand lands), so `extended` holds positions
      // [kR - offset, kR - offset + R). A slot whose blocks stay put is the
      // local block.
      SmallVector<Value> slots(source.moves.size(), value);
      for (auto [g, permute] : llvm::enumerate(exchange.permutes))
        for (auto [operand, slot] : permute.parts)
          if (operand == i)
            slots[slot] = received[g];
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
