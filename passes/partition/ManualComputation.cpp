//===- ManualComputation.cpp - partitioning xla.manual_computation --------===//

#include "passes/partition/ManualComputation.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

LogicalResult partitionManualComputation(ManualComputationOp op,
                                         RegionPartitioner &p) {
  OpBuilder &b = p.getBuilder();
  Block &body = op.getBody().front();
  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    ShardLayout layout = p.layoutOf(op.getInShardings()[i], type.getShape());
    mapping.map(body.getArgument(i), p.getAs(input, layout, op.getLoc()));
  }
  for (Operation &inner : body.without_terminator())
    b.clone(inner, mapping);
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    ShardLayout layout = p.layoutOf(op.getOutShardings()[i], type.getShape());
    p.place(result, mapping.lookup(op.getBodyYield().getValues()[i]), layout);
  }
  return success();
}

} // namespace xspmd::partition
