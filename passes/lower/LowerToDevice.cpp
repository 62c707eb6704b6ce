//===- LowerToDevice.cpp - --xla-lower-to-device --------------------------===//
//
// Lowers SPMD functions to per-device programs: device-dependent values
// become tables (DeviceValues), collectives name concrete devices and links
// (ResolveCollectives), and devices with identical programs share one body
// (DeviceBodies). docs/lowering.md describes the form.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/lower/DeviceBodies.h"
#include "passes/lower/DeviceValues.h"

namespace xspmd {
#define GEN_PASS_DEF_XLALOWERTODEVICEPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;
using namespace xspmd::lower;

namespace {

/// Whether `func` is an SPMD program still to lower: partitioned, or using
/// collectives or device ids, and not already an entry or a body.
bool isSpmdFunction(func::FuncOp func) {
  if (func.isExternal() || func->hasAttr(kDevicesAttrName) ||
      getEntryDispatch(func))
    return false;
  if (func->hasAttr(kPartitionedAttrName))
    return true;
  WalkResult found = func.walk([](Operation *op) {
    return isa<CollectiveOpInterface, AxisIndexOp, PartitionIdOp, DeviceTableOp,
               DispatchOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The devices `func` runs on: its module's meshes', else those its first
/// collective with replica groups lists.
FailureOr<int64_t> deviceCountOf(ModuleOp module, func::FuncOp func) {
  if (MeshOp mesh = findFirstMesh(module))
    return mesh.getMesh().getNumDevices();
  std::optional<int64_t> listed;
  func.walk([&](CollectiveOpInterface op) {
    if (DenseIntElementsAttr groups = op.getGroupsAttr()) {
      listed = groups.getNumElements();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (listed)
    return *listed;
  return func.emitOpError()
         << "cannot be lowered to per-device programs: the module declares "
            "no xla.mesh and no collective of the function lists replica "
            "groups, so the number of devices is unknown";
}

struct LowerToDevicePass
    : xspmd::impl::XlaLowerToDevicePassBase<LowerToDevicePass> {
  using Base::Base;

  LogicalResult lowerFunction(func::FuncOp func, const DeviceTarget &target,
                              SymbolTableCollection &symbols,
                              SymbolTable &symbolTable) {
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("cannot be lowered to per-device programs: it "
                              "has several blocks");
    WalkResult nested = func.walk([](DispatchOp op) {
      op.emitOpError("cannot be lowered again: only an entry function that "
                     "returns one dispatch of its arguments is lowered");
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return failure();
    DeviceValueStats valueStats;
    if (failed(materializeDeviceValues(func, target, symbols, valueStats)))
      return failure();
    FailureOr<std::vector<ResolvedCollective>> collectives =
        resolveCollectives(func, target, symbols);
    if (failed(collectives))
      return failure();
    SmallVector<func::FuncOp> bodies =
        buildDeviceBodies(func, *collectives, target, symbolTable);
    numTables += valueStats.tables;
    numFolded += valueStats.folded;
    numCollectives += collectives->size();
    numBodies += bodies.size();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (isSpmdFunction(func))
        functions.push_back(func);
    if (functions.empty())
      return;
    FailureOr<int64_t> sliceSize = DeviceTarget::sliceSizeOf(module);
    if (failed(sliceSize))
      return signalPassFailure();
    SymbolTableCollection symbols;
    SymbolTable symbolTable(module);
    for (func::FuncOp func : functions) {
      FailureOr<int64_t> numDevices = deviceCountOf(module, func);
      if (failed(numDevices))
        return signalPassFailure();
      DeviceTarget target{*numDevices, *sliceSize};
      if (failed(lowerFunction(func, target, symbols, symbolTable)))
        return signalPassFailure();
    }
  }
};

} // namespace
