//===- Indexing.cpp - hlo_gather and scatter on split blocks --------------===//

#include "passes/partition/Indexing.h"
#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaShardingRule.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {
namespace {

/// Index arithmetic on the start indices of a gather or scatter: values
/// broadcast along the index vectors.
class IndexVectors {
public:
  IndexVectors(LocalBuilder &local, Location loc, Value indices,
               int64_t indexVectorDim)
      : local(local), b(local.getBuilder()), loc(loc),
        type(cast<RankedTensorType>(indices.getType())),
        elem(type.getElementType()), indexVectorDim(indexVectorDim) {}

  /// The indices' element type holding `value` (a scalar i32 tensor).
  Value scalar(Value value) {
    if (elem.isInteger(32))
      return value;
    return ConvertOp::create(b, loc, RankedTensorType::get({}, elem), value);
  }

  /// A tensor of the indices' type whose every index vector holds
  /// `components` (scalars of the indices' element type).
  Value broadcast(ArrayRef<Value> components) {
    if (indexVectorDim == type.getRank())
      return BroadcastInDimOp::create(b, loc, type, components.front(),
                                      b.getDenseI64ArrayAttr({}));
    SmallVector<Value> pieces;
    auto one = RankedTensorType::get({1}, elem);
    for (Value c : components)
      pieces.push_back(ReshapeOp::create(b, loc, one, c));
    Value vector = pieces.size() == 1
                       ? pieces.front()
                       : ConcatenateOp::create(b, loc, pieces, 0).getResult();
    return BroadcastInDimOp::create(b, loc, type, vector,
                                    b.getDenseI64ArrayAttr({indexVectorDim}));
  }

  /// Like broadcast(), for constant components.
  Value broadcastConstants(ArrayRef<int64_t> values) {
    SmallVector<Value> components;
    for (int64_t v : values)
      components.push_back(local.splat(loc, RankedTensorType::get({}, elem),
                                       b.getIntegerAttr(elem, v)));
    return broadcast(components);
  }

  Value splat(int64_t value) {
    return local.splat(loc, type, b.getIntegerAttr(elem, value));
  }

  RankedTensorType predType() { return type.clone(b.getI1Type()); }

private:
  LocalBuilder &local;
  OpBuilder &b;
  Location loc;
  RankedTensorType type;
  Type elem;
  int64_t indexVectorDim;
};

} // namespace

Value buildLocalHloGather(LocalBuilder &local, HloGatherOp op, Value operand,
                          Value indices, const ShardLayout &operandLayout,
                          const ShardLayout &resultLayout,
                          const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  ArrayRef<int64_t> global = shapeOf(op.getOperand());
  ArrayRef<int64_t> localOperand = shapeOf(operand);
  auto resultType = op.getType().clone(resultLayout.localShape(mesh));
  // A slice covering a whole (split) dimension covers the local block.
  SmallVector<int64_t> sizes(op.getSliceSizes());
  for (auto [d, offsetDim] : llvm::enumerate(op.getOffsetDimOfOperand()))
    if (offsetDim >= 0 && sizes[d] == global[d])
      sizes[d] = localOperand[d];
  auto gather = [&](Value localIndices) {
    auto clone = cast<HloGatherOp>(b.clone(*op));
    clone->setOperands({operand, localIndices});
    clone.getResult().setType(resultType);
    clone.setSliceSizes(sizes);
    clone->removeAttr(kShardingAttrName);
    return clone.getResult();
  };
  // Devices own the starts of the indexed dimensions sliced by 1 that are
  // split (the rule's reduction factors); an indexed dimension sliced whole
  // starts at 0 on every device.
  ArrayRef<int64_t> indexMap = op.getStartIndexMap();
  auto owns = [&](int64_t d) {
    return op.getSliceSizes()[d] == 1 && !operandLayout.dimAxes[d].empty();
  };
  if (!llvm::any_of(indexMap, owns))
    return gather(indices);

  // Clamp as the unpartitioned op does, shift into this device's block and
  // note which start vectors fall in it along every owned dimension.
  int64_t ivd = op.getIndexVectorDim();
  IndexVectors vectors(local, loc, indices, ivd);
  SmallVector<int64_t> highs, limits;
  SmallVector<Value> offsets;
  for (int64_t d : indexMap) {
    int64_t high = global[d] - op.getSliceSizes()[d];
    highs.push_back(high);
    limits.push_back(owns(d) ? localOperand[d] : high + 1);
    offsets.push_back(
        vectors.scalar(owns(d) ? local.blockOffset(loc, operandLayout, d)
                               : local.scalarI32(loc, 0)));
  }
  Value zero = vectors.splat(0);
  Value clamped = MinOp::create(b, loc, MaxOp::create(b, loc, indices, zero),
                                vectors.broadcastConstants(highs));
  Value shifted = SubOp::create(b, loc, clamped, vectors.broadcast(offsets));
  Value inside = AndOp::create(
      b, loc,
      CompareOp::create(b, loc, vectors.predType(), CompareDirection::ge,
                        shifted, zero),
      CompareOp::create(b, loc, vectors.predType(), CompareDirection::lt,
                        shifted, vectors.broadcastConstants(limits)));
  auto indicesType = cast<RankedTensorType>(indices.getType());
  if (ivd < indicesType.getRank()) {
    SmallVector<int64_t> batchShape(indicesType.getShape());
    batchShape.erase(batchShape.begin() + ivd);
    inside = ReduceOp::create(
        b, loc, RankedTensorType::get(batchShape, b.getI1Type()),
        ReduceKind::and_, inside, b.getDenseI64ArrayAttr({ivd}));
  }
  Value mask =
      BroadcastInDimOp::create(b, loc, resultType.clone(b.getI1Type()), inside,
                               b.getDenseI64ArrayAttr(op.getBatchDims()));
  Value zeros =
      local.splat(loc, resultType, b.getZeroAttr(resultType.getElementType()));
  return SelectOp::create(b, loc, mask, gather(shifted), zeros);
}

void makeScatterInputsPartial(ScatterOp op, FactorAssignment &assignment) {
  for (int64_t i = 0, n = op.getInputs().size(); i < n; ++i) {
    assignment.operands[i].partialAxes = assignment.results[i].partialAxes;
    assignment.operands[i].partialKind = assignment.results[i].partialKind;
  }
}

Operation *buildLocalScatter(LocalBuilder &local, ScatterOp op,
                             ArrayRef<Value> operands,
                             const FactorAssignment &assignment,
                             const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  int64_t n = op.getInputs().size();
  const ShardLayout &inputLayout = assignment.operands.front();
  ArrayRef<int64_t> update = shapeOf(op.getUpdates().front());
  SmallVector<int64_t> windowOf = op.getWindowDimOfInput();
  SmallVector<Value> newOperands(operands);
  Value &indices = newOperands[n];
  IndexVectors vectors(local, loc, indices, op.getIndexVectorDim());
  // Starts along split dimensions of window size 1 move into this device's
  // block; those of other blocks fall out of bounds and are skipped.
  auto isSplit = [&](int64_t d) {
    int64_t window = windowOf[d] >= 0 ? update[windowOf[d]] : 1;
    return window == 1 && !inputLayout.dimAxes[d].empty();
  };
  ArrayRef<int64_t> indexMap = op.getScatterDimsToOperandDims();
  if (llvm::any_of(indexMap, isSplit)) {
    SmallVector<Value> offsets;
    for (int64_t d : indexMap)
      offsets.push_back(
          vectors.scalar(isSplit(d) ? local.blockOffset(loc, inputLayout, d)
                                    : local.scalarI32(loc, 0)));
    indices = SubOp::create(b, loc, indices, vectors.broadcast(offsets));
  }
  Operation *clone = b.clone(*op);
  clone->setOperands(newOperands);
  for (auto [i, result] : llvm::enumerate(clone->getResults()))
    result.setType(cast<RankedTensorType>(result.getType())
                       .clone(assignment.results[i].localShape(mesh)));
  clone->removeAttr(kShardingAttrName);
  return clone;
}

} // namespace xspmd::partition
