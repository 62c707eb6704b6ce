//===- ControlFlow.cpp - partitioning xla.while and xla.case --------------===//

#include "passes/partition/ControlFlow.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

RegionPartitioner::~RegionPartitioner() = default;

LogicalResult partitionWhile(WhileOp op, RegionPartitioner &p) {
  OpBuilder &b = p.getBuilder();
  const MeshModel &mesh = p.getMeshModel();
  Location loc = op.getLoc();
  // One layout per carried value; a carried value is never partial (each
  // iteration reads it whole).
  SmallVector<ShardLayout> layouts;
  SmallVector<Value> inits;
  SmallVector<Type> localTypes;
  for (auto [i, init] : llvm::enumerate(op.getInits())) {
    auto type = cast<RankedTensorType>(init.getType());
    ShardLayout layout =
        p.layoutOf(getResultShardingAttr(op, i), type.getShape());
    layout.partialAxes.clear();
    inits.push_back(p.getAs(init, layout, loc));
    localTypes.push_back(type.clone(layout.localShape(mesh)));
    layouts.push_back(std::move(layout));
  }
  auto loop = WhileOp::create(b, loc, localTypes, inits);
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Location> argLocs(localTypes.size(), loc);
  for (auto [oldRegion, newRegion] :
       {std::pair<Region *, Region *>{&op.getCond(), &loop.getCond()},
        {&op.getBody(), &loop.getBody()}}) {
    Block &oldBlock = oldRegion->front();
    Block *block = b.createBlock(newRegion, {}, localTypes, argLocs);
    for (auto [i, arg] : llvm::enumerate(oldBlock.getArguments()))
      p.place(arg, block->getArgument(i), layouts[i]);
    if (failed(p.partitionRegionBody(oldBlock)))
      return failure();
    auto yield = cast<YieldOp>(oldBlock.getTerminator());
    SmallVector<Value> yielded;
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      // The condition is a scalar: every device holds it whole.
      ShardLayout layout =
          oldRegion == &op.getCond()
              ? ShardLayout::replicated(
                    cast<RankedTensorType>(value.getType()).getShape())
              : layouts[i];
      yielded.push_back(p.getAs(value, layout, yield.getLoc()));
    }
    YieldOp::create(b, yield.getLoc(), yielded);
  }
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    p.place(result, loop.getResult(i), layouts[i]);
  return success();
}

LogicalResult partitionCase(CaseOp op, RegionPartitioner &p) {
  OpBuilder &b = p.getBuilder();
  const MeshModel &mesh = p.getMeshModel();
  Location loc = op.getLoc();
  auto indexType = cast<RankedTensorType>(op.getIndex().getType());
  Value index = p.getAs(op.getIndex(),
                        ShardLayout::replicated(indexType.getShape()), loc);
  SmallVector<ShardLayout> layouts;
  SmallVector<Type> localTypes;
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    ShardLayout layout =
        p.layoutOf(getResultShardingAttr(op, i), type.getShape());
    layout.partialAxes.clear();
    localTypes.push_back(type.clone(layout.localShape(mesh)));
    layouts.push_back(std::move(layout));
  }
  auto select =
      CaseOp::create(b, loc, localTypes, index, op.getBranches().size());
  OpBuilder::InsertionGuard guard(b);
  for (auto [oldRegion, newRegion] :
       llvm::zip_equal(op.getBranches(), select.getBranches())) {
    Block &oldBlock = oldRegion.front();
    b.createBlock(&newRegion);
    if (failed(p.partitionRegionBody(oldBlock)))
      return failure();
    auto yield = cast<YieldOp>(oldBlock.getTerminator());
    SmallVector<Value> yielded;
    for (auto [i, value] : llvm::enumerate(yield.getValues()))
      yielded.push_back(p.getAs(value, layouts[i], yield.getLoc()));
    YieldOp::create(b, yield.getLoc(), yielded);
  }
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    p.place(result, select.getResult(i), layouts[i]);
  return success();
}

} // namespace xspmd::partition
