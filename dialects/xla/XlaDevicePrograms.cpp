//===- XlaDevicePrograms.cpp - per-device tables and bodies ---------------===//
//
// The ops of programs lowered to per-device form: xla.device_table (a value
// per device) and xla.dispatch (an entry that runs, on each device, the body
// listing it).
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::xla {

/// The range of values an integer element type holds (i1: 0 and 1).
static std::pair<int64_t, int64_t> integerRange(IntegerType type) {
  unsigned width = type.getWidth();
  if (width == 1)
    return {0, 1};
  if (width >= 64)
    return {INT64_MIN, INT64_MAX};
  return {-(int64_t(1) << (width - 1)), (int64_t(1) << (width - 1)) - 1};
}

bool fitsElementType(int64_t value, Type elementType) {
  auto type = dyn_cast<IntegerType>(elementType);
  if (!type)
    return false;
  auto [lo, hi] = integerRange(type);
  return value >= lo && value <= hi;
}

DispatchOp getEntryDispatch(FunctionOpInterface func) {
  if (func.isExternal() || !func.getFunctionBody().hasOneBlock())
    return {};
  Block &block = func.getFunctionBody().front();
  if (block.getOperations().size() != 2)
    return {};
  auto dispatch = dyn_cast<DispatchOp>(block.front());
  Operation *terminator = block.getTerminator();
  if (!dispatch || !terminator ||
      !llvm::equal(dispatch.getInputs(), block.getArguments()) ||
      !llvm::equal(terminator->getOperands(), dispatch.getResults()))
    return {};
  return dispatch;
}

} // namespace xspmd::xla

//===----------------------------------------------------------------------===//
// DeviceTableOp
//===----------------------------------------------------------------------===//

LogicalResult DeviceTableOp::verify() {
  ArrayRef<int64_t> values = getValues();
  if (values.empty())
    return emitOpError("must hold one value per device, got none");
  Type elem = getType().getElementType();
  for (auto [device, value] : llvm::enumerate(values))
    if (!fitsElementType(value, elem))
      return emitOpError() << "value " << value << " of device " << device
                           << " does not fit " << elem;
  if (MeshOp mesh = findFirstMesh(*this)) {
    int64_t numDevices = mesh.getMesh().getNumDevices();
    if (static_cast<int64_t>(values.size()) != numDevices)
      return emitOpError() << "holds " << values.size()
                           << " values but the module's meshes span "
                           << numDevices << " devices";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto expected = FunctionType::get(getContext(), getInputs().getTypes(),
                                    getResults().getTypes());
  MeshOp mesh = findFirstMesh(*this);
  int64_t numDevices = mesh ? mesh.getMesh().getNumDevices() : -1;
  llvm::DenseMap<int64_t, FlatSymbolRefAttr> owner;
  llvm::SmallDenseSet<Attribute> seen;
  int64_t maxDevice = -1;
  for (auto body : getBodies().getAsRange<FlatSymbolRefAttr>()) {
    if (!seen.insert(body).second)
      return emitOpError() << "lists body " << body << " twice";
    auto func = symbols.lookupNearestSymbolFrom<FunctionOpInterface>(
        *this, body.getAttr());
    if (!func)
      return emitOpError() << "names unknown function " << body;
    if (func.isExternal())
      return emitOpError() << "body " << body << " is a declaration";
    if (func.getFunctionType() != expected)
      return emitOpError() << "body " << body << " has type "
                           << func.getFunctionType() << " but the dispatch is "
                           << expected;
    auto devices = func->getAttrOfType<DenseI64ArrayAttr>(kDevicesAttrName);
    if (!devices)
      return emitOpError() << "body " << body << " does not list its devices ('"
                           << kDevicesAttrName << "')";
    for (int64_t d : devices.asArrayRef()) {
      if (numDevices >= 0 && d >= numDevices)
        return emitOpError()
               << "body " << body << " lists device " << d
               << " but the module's meshes span " << numDevices << " devices";
      auto [it, inserted] = owner.try_emplace(d, body);
      if (!inserted)
        return emitOpError() << "device " << d << " is listed by bodies "
                             << it->second << " and " << body;
      maxDevice = std::max(maxDevice, d);
    }
  }
  if (numDevices < 0)
    numDevices = maxDevice + 1;
  for (int64_t d = 0; d < numDevices; ++d)
    if (!owner.count(d))
      return emitOpError() << "device " << d << " is listed by no body";
  return success();
}
