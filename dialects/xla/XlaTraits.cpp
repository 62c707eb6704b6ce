//===- XlaTraits.cpp - op traits of the xla dialect -----------------------===//

#include "dialects/xla/XlaTraits.h"

#include "dialects/xla/XlaOps.h"

using namespace mlir;

namespace xspmd::xla {

static bool isScalarTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0;
}

LogicalResult verifyScalarBodies(Operation *op) {
  for (auto [r, region] : llvm::enumerate(op->getRegions())) {
    if (!region.hasOneBlock())
      return op->emitOpError() << "region " << r << " must have one block";
    Block &block = region.front();
    for (BlockArgument arg : block.getArguments())
      if (!isScalarTensor(arg.getType()))
        return op->emitOpError()
               << "region " << r << " is a scalar computation: argument "
               << arg.getArgNumber() << " must be a rank-0 tensor, not "
               << arg.getType();
    auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
    if (!yield)
      return op->emitOpError() << "region " << r << " must end in xla.yield";
    for (auto [i, value] : llvm::enumerate(yield.getValues()))
      if (!isScalarTensor(value.getType()))
        return yield.emitOpError()
               << "of a scalar computation yields rank-0 tensors; value " << i
               << " is " << value.getType();
  }
  return success();
}

bool isInScalarBody(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->hasTrait<ScalarBodies>())
      return true;
  return false;
}

bool isInLocalRegion(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->hasTrait<ScalarBodies>() ||
        isa<ManualComputationOp>(parent))
      return true;
  return false;
}

} // namespace xspmd::xla
