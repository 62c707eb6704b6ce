//===- ReduceRegion.cpp - partitioning reductions with any body -----------===//

#include "passes/partition/ReduceRegion.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

namespace {

RankedTensorType tensorTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// A reduce_region like `op` (same body) of `inputs` and `inits` over
/// `dims`, giving `types`.
ReduceRegionOp cloneReduce(OpBuilder &b, ReduceRegionOp op, TypeRange types,
                           ValueRange inputs, ValueRange inits,
                           ArrayRef<int64_t> dims) {
  auto reduce = ReduceRegionOp::create(b, op.getLoc(), types, inputs, inits,
                                       b.getDenseI64ArrayAttr(dims));
  IRMapping mapping;
  op.getBody().cloneInto(&reduce.getBody(), mapping);
  return reduce;
}

/// The partial result of one device stacked along a new leading dimension
/// over the partial axes of `layout`: as a global tensor, and its layouts
/// before and after the gather.
struct StackedPartials {
  SmallVector<int64_t> shape;
  ShardLayout split, gathered;
};

StackedPartials stackPartials(const ShardLayout &layout,
                              ArrayRef<int64_t> globalShape,
                              const MeshModel &mesh) {
  int64_t shards = 1;
  for (int a : layout.partialAxes)
    shards *= mesh.axisSizes[a];
  StackedPartials s;
  s.shape.push_back(shards);
  llvm::append_range(s.shape, globalShape);
  s.split.dimAxes.push_back(SmallVector<int, 2>(layout.partialAxes.begin(),
                                                layout.partialAxes.end()));
  llvm::append_range(s.split.dimAxes, layout.dimAxes);
  s.split.paddedSize.push_back(shards);
  llvm::append_range(s.split.paddedSize, layout.paddedSize);
  s.gathered = s.split;
  s.gathered.dimAxes.front().clear();
  return s;
}

} // namespace

OpShardingRule splitReducedDims(ReduceRegionOp op, const OpShardingRule &rule) {
  OpShardingRule split = rule;
  for (int64_t d : op.getDims())
    for (int64_t f : rule.operands[0][d])
      split.factorKinds[f] = FactorKind::reduction;
  return split;
}

double partialGatherPrice(
    ReduceRegionOp op, ArrayRef<ShardLayout> results, const MeshModel &mesh,
    function_ref<double(ArrayRef<int64_t>, int64_t, const ShardLayout &,
                        const ShardLayout &)>
        price) {
  double cost = 0;
  for (auto [result, layout] : llvm::zip(op.getResults(), results)) {
    if (layout.partialAxes.empty())
      continue;
    RankedTensorType type = tensorTypeOf(result);
    StackedPartials s = stackPartials(layout, type.getShape(), mesh);
    cost += price(s.shape, (type.getElementTypeBitWidth() + 7) / 8, s.split,
                  s.gathered);
  }
  return cost;
}

double partialGatherCost(ReduceRegionOp op, ArrayRef<ShardLayout> results,
                         ReshardPlanner &planner) {
  return partialGatherPrice(
      op, results, planner.getMesh(),
      [&](ArrayRef<int64_t> shape, int64_t elementBytes,
          const ShardLayout &from, const ShardLayout &to) {
        return planner.plan(shape, elementBytes, from, to).cost;
      });
}

SmallVector<Value> buildTwoStageReduce(LocalBuilder &local, ReduceRegionOp op,
                                       ArrayRef<Value> operands,
                                       const FactorAssignment &assignment,
                                       const MeshModel &mesh,
                                       FlatSymbolRefAttr meshName) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  int64_t n = op.getInputs().size();
  ArrayRef<Value> inits = operands.drop_front(n);
  // Stage 1 on each device's block; padding takes the init so that it
  // never wins (the init is the body's identity).
  SmallVector<int64_t> splitDims;
  for (int64_t d : op.getDims())
    if (!assignment.operands[0].dimAxes[d].empty())
      splitDims.push_back(d);
  SmallVector<Value> inputs;
  SmallVector<Type> localTypes;
  for (int64_t i = 0; i < n; ++i) {
    inputs.push_back(local.maskPadding(
        loc, operands[i], assignment.operands[i],
        tensorTypeOf(op.getInputs()[i]).getShape(), splitDims, inits[i]));
    localTypes.push_back(tensorTypeOf(op.getResult(i))
                             .clone(assignment.results[i].localShape(mesh)));
  }
  ReduceRegionOp partial =
      cloneReduce(b, op, localTypes, inputs, inits, op.getDims());

  // Stage 2: every device gathers the partial results of its group along a
  // new leading dimension and reduces it.
  SmallVector<Attribute> axisNames;
  for (int a : assignment.results.front().partialAxes)
    axisNames.push_back(b.getStringAttr(mesh.axisNames[a]));
  ArrayAttr axes = b.getArrayAttr(axisNames);
  int64_t shards = 1;
  for (int a : assignment.results.front().partialAxes)
    shards *= mesh.axisSizes[a];
  SmallVector<Value> stacked;
  for (auto [value, type] : llvm::zip(partial.getResults(), localTypes)) {
    auto localType = cast<RankedTensorType>(type);
    SmallVector<int64_t> one{1}, all{shards};
    llvm::append_range(one, localType.getShape());
    llvm::append_range(all, localType.getShape());
    Value block = ReshapeOp::create(b, loc, localType.clone(one), value);
    stacked.push_back(AllGatherOp::create(b, loc, localType.clone(all), block,
                                          0, meshName, axes, nullptr, nullptr));
  }
  ReduceRegionOp combined = cloneReduce(b, op, localTypes, stacked, inits, {0});
  return SmallVector<Value>(combined.getResults());
}

} // namespace xspmd::partition
