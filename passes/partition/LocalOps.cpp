//===- LocalOps.cpp - the local op each device runs -----------------------===//

#include "passes/partition/LocalOps.h"
#include "passes/partition/LocalBuilder.h"

#include "passes/partition/WindowedOps.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

Operation *
buildLocalRuleOp(LocalBuilder &local, Operation *op, ArrayRef<Value> operands,
                 const FactorAssignment &assignment, const OpShardingRule &rule,
                 ArrayRef<int64_t> windowedDims, const MeshModel &mesh) {
  OpBuilder &builder = local.getBuilder();
  auto globalType = cast<RankedTensorType>(op->getResult(0).getType());
  auto resultType =
      globalType.clone(assignment.results.front().localShape(mesh));
  SmallVector<Type> resultTypes;
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    resultTypes.push_back(cast<RankedTensorType>(result.getType())
                              .clone(assignment.results[i].localShape(mesh)));
  Location loc = op->getLoc();
  auto sizesOf = [](Value v) { return SmallVector<int64_t>(shapeOf(v)); };
  // Ops whose attributes mention sizes get the local ones.
  if (auto slice = dyn_cast<SliceOp>(op)) {
    SmallVector<int64_t> start(slice.getStart()), limit(slice.getLimit());
    ArrayRef<int64_t> in = shapeOf(slice.getInput());
    SmallVector<int64_t> localIn = sizesOf(operands[0]);
    for (size_t d = 0; d < limit.size(); ++d) {
      bool whole =
          start[d] == 0 && limit[d] == in[d] && slice.getStrides()[d] == 1;
      if (whole || llvm::is_contained(windowedDims, d)) {
        // The (windowed) local input is exactly what this dimension keeps.
        start[d] = 0;
        limit[d] = localIn[d];
      }
    }
    return SliceOp::create(builder, loc, resultType, operands[0],
                           builder.getDenseI64ArrayAttr(start),
                           builder.getDenseI64ArrayAttr(limit),
                           slice.getStridesAttr());
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    SmallVector<int64_t> low(pad.getLow()), high(pad.getHigh());
    for (int64_t d : windowedDims)
      low[d] = high[d] = 0;
    return PadOp::create(builder, loc, resultType, operands[0],
                         builder.getDenseI64ArrayAttr(low),
                         builder.getDenseI64ArrayAttr(high),
                         pad.getInteriorAttr(), pad.getValueAttr());
  }
  if (auto dyn = dyn_cast<DynamicSliceOp>(op))
    return DynamicSliceOp::create(
        builder, loc, resultType, operands[0], operands.drop_front(),
        builder.getDenseI64ArrayAttr(resultType.getShape()));
  if (auto mean = dyn_cast<ReduceOp>(op);
      mean && mean.getKind() == ReduceKind::mean) {
    // A mean over a split dimension: local sums divided by the global count
    // add up to the mean.
    int64_t count = 1;
    for (int64_t d : mean.getDims())
      count *= shapeOf(mean.getInput())[d];
    Value sum = ReduceOp::create(builder, loc, resultType, ReduceKind::sum,
                                 operands[0], mean.getDimsAttr());
    Value divisor =
        local.splat(loc, resultType,
                    builder.getFloatAttr(resultType.getElementType(),
                                         static_cast<double>(count)));
    return DivOp::create(builder, loc, sum, divisor);
  }
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.propertiesAttr = op->getPropertiesAsAttribute();
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName() != kShardingAttrName)
      state.addAttribute(attr.getName(), attr.getValue());
  // Scalar bodies (a combiner, a comparator) act per element: the local op
  // applies the same computation.
  for (Region &region : op->getRegions()) {
    IRMapping mapping;
    region.cloneInto(state.addRegion(), mapping);
  }
  Operation *clone = builder.create(state);
  clearWindowedPadding(clone, windowedDims);
  if (auto conv = dyn_cast<ConvolutionOp>(clone);
      conv && conv.getFeatureGroups() > 1) {
    // The group factor is the major factor of the result's feature
    // dimension; splitting it leaves fewer groups per device.
    int64_t groupFactor = rule.results.front().back().front();
    int64_t shards = 1;
    for (int a : assignment.factorAxes[groupFactor])
      shards *= mesh.axisSizes[a];
    conv.setFeatureGroups(conv.getFeatureGroups() / shards);
  }
  return clone;
}

Value buildLocalRng(LocalBuilder &local, RngOp op, const ShardLayout &layout,
                    const MeshModel &mesh) {
  OpBuilder &builder = local.getBuilder();
  Location loc = op.getLoc();
  auto globalType = op.getType();
  auto localType = globalType.clone(layout.localShape(mesh));
  bool split = llvm::any_of(layout.dimAxes,
                            [](const auto &axes) { return !axes.empty(); });
  if (!split) {
    Operation *clone = builder.clone(*op);
    clone->removeAttr(kShardingAttrName);
    return clone->getResult(0);
  }
  // Element i of the global tensor depends only on (seed, i): each device
  // draws its block by giving the global shape and its block's offsets.
  auto i64 = builder.getI64Type();
  SmallVector<Value> offsets;
  for (int64_t d = 0; d < layout.rank(); ++d) {
    Value offset = local.blockOffset(loc, layout, d);
    Value wide =
        ConvertOp::create(builder, loc, RankedTensorType::get({}, i64), offset);
    offsets.push_back(
        ReshapeOp::create(builder, loc, RankedTensorType::get({1}, i64), wide));
  }
  Value offsetVector =
      offsets.size() == 1
          ? offsets.front()
          : ConcatenateOp::create(builder, loc, offsets, 0).getResult();
  return RngOp::create(builder, loc, localType, op.getDistributionAttr(),
                       op.getSeedAttr(), op.getAAttr(), op.getBAttr(),
                       builder.getDenseI64ArrayAttr(globalType.getShape()),
                       offsetVector);
}

Value buildLocalEmbeddingGather(LocalBuilder &local, GatherOp op, Value table,
                                Value indices,
                                const FactorAssignment &assignment,
                                const MeshModel &mesh) {
  OpBuilder &builder = local.getBuilder();
  Location loc = op.getLoc();
  auto globalType = op.getType();
  auto resultType =
      globalType.clone(assignment.results.front().localShape(mesh));
  const ShardLayout &tableLayout = assignment.operands[0];
  if (tableLayout.dimAxes[0].empty())
    return GatherOp::create(builder, loc, resultType, table, indices);
  // Vocabulary-parallel lookup: each device holds rows [offset, offset+n);
  // it looks up the indices that fall there and contributes zeros for the
  // others, so the result is a pending sum over the rows' axes.
  auto indexType = cast<RankedTensorType>(indices.getType());
  Type indexElem = indexType.getElementType();
  int64_t rows = cast<RankedTensorType>(table.getType()).getDimSize(0);
  Value offset = local.blockOffset(loc, tableLayout, 0);
  if (!indexElem.isInteger(32))
    offset = ConvertOp::create(builder, loc,
                               RankedTensorType::get({}, indexElem), offset);
  Value offsets = BroadcastInDimOp::create(builder, loc, indexType, offset,
                                           builder.getDenseI64ArrayAttr({}));
  // Clamp first, as the unpartitioned gather does, so that every index names
  // exactly one real row.
  int64_t globalRows = shapeOf(op.getTable())[0];
  Value zero =
      local.splat(loc, indexType, builder.getIntegerAttr(indexElem, 0));
  Value lastRow = local.splat(
      loc, indexType, builder.getIntegerAttr(indexElem, globalRows - 1));
  Value clamped = MinOp::create(
      builder, loc, MaxOp::create(builder, loc, indices, zero), lastRow);
  Value shifted = SubOp::create(builder, loc, clamped, offsets);
  auto predType = indexType.clone(builder.getI1Type());
  Value rowCount =
      local.splat(loc, indexType, builder.getIntegerAttr(indexElem, rows));
  Value aboveLow = CompareOp::create(builder, loc, predType,
                                     CompareDirection::ge, shifted, zero);
  Value belowHigh = CompareOp::create(builder, loc, predType,
                                      CompareDirection::lt, shifted, rowCount);
  Value mine = AndOp::create(builder, loc, aboveLow, belowHigh);
  Value looked = GatherOp::create(builder, loc, resultType, table, shifted);
  // Broadcast the row mask over the looked-up rows' trailing dimensions.
  auto maskType = resultType.clone(builder.getI1Type());
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(0, indexType.getRank()));
  Value mask = BroadcastInDimOp::create(builder, loc, maskType, mine,
                                        builder.getDenseI64ArrayAttr(dims));
  Value zeros = local.splat(loc, resultType,
                            builder.getZeroAttr(resultType.getElementType()));
  return SelectOp::create(builder, loc, mask, looked, zeros);
}

} // namespace xspmd::partition
