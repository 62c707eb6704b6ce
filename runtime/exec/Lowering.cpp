//===- Lowering.cpp - from one op to one kernel ---------------------------===//

#include "runtime/exec/Lowering.h"

#include "dialects/xla/XlaOps.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

bool isDeviceDependent(Operation *op) {
  return isa<CollectiveOpInterface, PartitionIdOp, AxisIndexOp, DeviceTableOp,
             DispatchOp>(op);
}

FailureOr<OpKernel> lowerOperation(Operation *op, LoweringContext &ctx) {
  // Arithmetic, math, compare, select, convert, clamp, bitcast_convert.
  bool elementwise = isa_and_nonnull<XlaDialect>(op->getDialect()) &&
                     op->hasTrait<OpTrait::Elementwise>();
  if (elementwise || isa<MarkShardingOp>(op))
    return lowerElementwiseOp(op);
  if (isa<BroadcastInDimOp, ReshapeOp, TransposeOp, SliceOp, DynamicSliceOp,
          DynamicUpdateSliceOp, ConcatenateOp, PadOp, GatherOp, ReverseOp>(op))
    return lowerDataMovementOp(op);
  if (isa<DotGeneralOp, MatmulOp, EinsumOp, ReduceOp, SoftmaxOp, ConvolutionOp>(
          op))
    return lowerNumericOp(op);
  if (isa<HloGatherOp, ScatterOp, SortOp>(op))
    return lowerIndexingOp(op);
  if (isa<ReduceRegionOp, ReduceWindowOp, SelectAndScatterOp>(op))
    return lowerReductionOp(op);
  if (isa<IotaOp, RngOp, PartitionIdOp, AxisIndexOp, DeviceTableOp>(op))
    return lowerSourceOp(op, ctx);
  if (isa<DispatchOp>(op))
    return op->emitOpError(
        "selects a body per device; the simulator runs it as the whole body "
        "of an entry function that returns the dispatch of its arguments");
  if (isa<CollectiveOpInterface>(op))
    return lowerCollectiveOp(op, ctx);
  return op->emitOpError(
      "cannot be executed by the simulator (xla-run runs "
      "the ops of the xla dialect, func.call and func.return)");
}

} // namespace xspmd::runtime
