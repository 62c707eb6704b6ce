//===- Maximal.cpp - values that live on one device -----------------------===//

#include "passes/partition/Maximal.h"

#include "passes/common/FunctionAttrs.h"

#include "dialects/xla/XlaOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

MaximalReshard planMaximalReshard(const ShardLayout &from,
                                  const ShardLayout &to,
                                  const MeshModel &mesh) {
  MaximalReshard result;
  result.to = to;
  result.to.maximalDevice = -1;
  if (from.isMaximal()) {
    // Zero everywhere but on its device, the value is the sum over all
    // devices: GSPMD's broadcast from one device (select + all-reduce).
    result.maskDevice = from.maximalDevice;
    result.from = ShardLayout::replicated(
        SmallVector<int64_t>(from.paddedSize.begin(), from.paddedSize.end()));
    for (int a = 0, e = mesh.rank(); a < e; ++a)
      if (mesh.axisSizes[a] > 1)
        result.from.partialAxes.push_back(a);
    result.from.partialKind = ReductionKind::sum;
  } else {
    result.from = from;
  }
  if (to.isMaximal())
    result.to = ShardLayout::replicated(
        SmallVector<int64_t>(to.paddedSize.begin(), to.paddedSize.end()));
  return result;
}

/// A scalar i1: whether the running device is `device`.
static Value isDevice(OpBuilder &b, Location loc, int64_t device) {
  auto scalar = RankedTensorType::get({}, b.getI32Type());
  Value id = PartitionIdOp::create(b, loc, scalar);
  Value k = ConstantOp::create(
      b, loc, DenseElementsAttr::get(scalar, b.getI32IntegerAttr(device)));
  return CompareOp::create(b, loc, RankedTensorType::get({}, b.getI1Type()),
                           CompareDirection::eq, id, k);
}

Value maskToDevice(OpBuilder &b, Location loc, Value value, int64_t device) {
  auto type = cast<RankedTensorType>(value.getType());
  Value here = isDevice(b, loc, device);
  Value pred = BroadcastInDimOp::create(b, loc, type.clone(b.getI1Type()), here,
                                        b.getDenseI64ArrayAttr({}));
  Value zeros = ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
  return SelectOp::create(b, loc, pred, value, zeros);
}

SmallVector<Value> buildMaximalOp(OpBuilder &b, Operation *op,
                                  ValueRange operands, int64_t device) {
  Location loc = op->getLoc();
  Value here = isDevice(b, loc, device);
  auto select = CaseOp::create(b, loc, op->getResultTypes(), here,
                               /*branchesCount=*/2);
  OpBuilder::InsertionGuard guard(b);
  // Branch 0 (true): the op itself, on device `device`.
  b.createBlock(&select.getBranches()[0]);
  IRMapping mapping;
  mapping.map(op->getOperands(), operands);
  Operation *clone = b.clone(*op, mapping);
  clone->removeAttr(kShardingAttrName);
  YieldOp::create(b, loc, clone->getResults());
  // Branch 1: zeros on the other devices.
  b.createBlock(&select.getBranches()[1]);
  SmallVector<Value> zeros;
  for (Type t : op->getResultTypes()) {
    auto type = cast<RankedTensorType>(t);
    zeros.push_back(ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType()))));
  }
  YieldOp::create(b, loc, zeros);
  return SmallVector<Value>(select.getResults());
}

} // namespace xspmd::partition
