//===- XlaDialect.cpp - the xla dialect -----------------------------------===//

#include "dialects/xla/XlaDialect.h"
#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaShardingRule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace xspmd::xla;

#include "dialects/xla/XlaDialect.cpp.inc"
#include "dialects/xla/XlaEnums.cpp.inc"

namespace {

/// Every xla op may be inlined: the ops are pure or side-effect free apart
/// from collectives, whose meaning does not depend on the function they sit
/// in. This lets the SPMD pipeline inline `func.call`s into their callers.
struct XlaInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace

void XlaDialect::initialize() {
  registerAttributes();
  registerOps();
  addInterfaces<XlaInlinerInterface>();
  registerShardingRuleModels(getContext());
}

void XlaDialect::rememberParsedMesh(StringAttr name, Attribute mesh) {
  std::lock_guard<std::mutex> lock(parsedMeshesMutex);
  parsedMeshes[name] = mesh;
}

Attribute XlaDialect::lookupParsedMesh(StringAttr name) const {
  std::lock_guard<std::mutex> lock(parsedMeshesMutex);
  return parsedMeshes.lookup(name);
}

Operation *XlaDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

/// Checks a sharding attribute against the mesh it names (looked up from
/// `anchor`) and the type it annotates.
static LogicalResult verifyShardingOf(Operation *anchor, Attribute attr,
                                      Type type, const Twine &what) {
  auto sharding = dyn_cast<ShardingAttr>(attr);
  if (!sharding)
    return anchor->emitOpError() << "'" << kShardingAttrName << "' of " << what
                                 << " must be an #xla.sharding, got " << attr;
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(
      anchor, sharding.getMesh().getAttr());
  if (!mesh)
    return anchor->emitOpError()
           << "sharding of " << what << " names unknown mesh "
           << sharding.getMesh();
  return sharding.verifyFor(
      [&] { return anchor->emitOpError() << "sharding of " << what << ": "; },
      mesh.getMesh(), type);
}

/// Checks `xla.global_type` on an argument or result of local type `local`.
static LogicalResult verifyGlobalType(Operation *op, Attribute attr, Type local,
                                      const Twine &what) {
  auto global = dyn_cast<TypeAttr>(attr);
  auto globalType =
      global ? dyn_cast<RankedTensorType>(global.getValue()) : nullptr;
  auto localType = dyn_cast<RankedTensorType>(local);
  if (!globalType || !localType ||
      globalType.getElementType() != localType.getElementType() ||
      globalType.getRank() != localType.getRank())
    return op->emitOpError() << "'" << kGlobalTypeAttrName << "' of " << what
                             << " must be a tensor type of the same rank and "
                                "element type as "
                             << local;
  return success();
}

/// Checks `xla.devices`: on a function, a non-empty strictly increasing list
/// of device ids.
static LogicalResult verifyDevicesAttr(Operation *op, Attribute attr) {
  auto devices = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!devices || !isa<FunctionOpInterface>(op))
    return op->emitOpError() << "'" << kDevicesAttrName
                             << "' is an array<i64: ...> of device ids on a "
                                "function";
  ArrayRef<int64_t> ids = devices.asArrayRef();
  if (ids.empty())
    return op->emitOpError()
           << "'" << kDevicesAttrName << "' must list at least one device";
  for (auto [i, id] : llvm::enumerate(ids)) {
    if (id < 0)
      return op->emitOpError() << "'" << kDevicesAttrName << "' lists device "
                               << id << ", which is negative";
    if (i > 0 && ids[i - 1] >= id)
      return op->emitOpError()
             << "'" << kDevicesAttrName
             << "' must list device ids in increasing order, without "
                "repeats; "
             << ids[i - 1] << " comes before " << id;
  }
  return success();
}

LogicalResult XlaDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == kPartitionedAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << kPartitionedAttrName
                               << "' is a unit attribute of functions";
    return success();
  }
  if (attr.getName() == kDevicesAttrName)
    return verifyDevicesAttr(op, attr.getValue());
  if (attr.getName() == kShardingAttrName) {
    // One sharding per result: a sharding for a single-result op, an array
    // otherwise.
    if (op->getNumResults() == 1 && !isa<ArrayAttr>(attr.getValue()))
      return verifyShardingOf(op, attr.getValue(), op->getResult(0).getType(),
                              "result 0");
    auto array = dyn_cast<ArrayAttr>(attr.getValue());
    if (!array || array.size() != op->getNumResults())
      return op->emitOpError()
             << "'" << kShardingAttrName << "' must hold one sharding per "
             << "result (" << op->getNumResults() << ")";
    for (auto [i, sharding] : llvm::enumerate(array))
      if (failed(verifyShardingOf(op, sharding, op->getResult(i).getType(),
                                  "result " + Twine(i))))
        return failure();
    return success();
  }
  if (attr.getName() == kShardingRuleAttrName) {
    auto rule = dyn_cast<OpShardingRuleAttr>(attr.getValue());
    if (!rule)
      return op->emitOpError()
             << "'" << kShardingRuleAttrName
             << "' must be an #xla.op_sharding_rule, got " << attr.getValue();
    return verifyShardingRule(ruleFromAttr(rule), op,
                              [&] { return op->emitOpError(); });
  }
  return op->emitOpError() << "unknown xla dialect attribute '"
                           << attr.getName().getValue() << "'";
}

LogicalResult XlaDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0)
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' is only valid on function arguments";
  Type argType = func.getArgumentTypes()[argIndex];
  if (attr.getName() == kShardingAttrName)
    return verifyShardingOf(op, attr.getValue(), argType,
                            "argument " + Twine(argIndex));
  if (attr.getName() == kGlobalTypeAttrName)
    return verifyGlobalType(op, attr.getValue(), argType,
                            "argument " + Twine(argIndex));
  if (attr.getName() == kDonateAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << kDonateAttrName << "' is a unit attribute";
    return success();
  }
  if (attr.getName() == kAliasesAttrName) {
    auto index = dyn_cast<IntegerAttr>(attr.getValue());
    int64_t numResults = func.getResultTypes().size();
    if (numResults == 0)
      return op->emitOpError()
             << "'" << kAliasesAttrName << "' of argument " << argIndex
             << " names a result, but the function has none";
    if (!index || index.getInt() < 0 || index.getInt() >= numResults)
      return op->emitOpError()
             << "'" << kAliasesAttrName << "' of argument " << argIndex
             << " must be the index of a result (0.." << numResults - 1 << ")";
    Type resultType = func.getResultTypes()[index.getInt()];
    if (resultType != argType)
      return op->emitOpError() << "argument " << argIndex << " of type "
                               << argType << " cannot alias result "
                               << index.getInt() << " of type " << resultType;
    for (unsigned other = 0, e = func.getNumArguments(); other < e; ++other)
      if (other != argIndex)
        if (auto otherIndex =
                func.getArgAttrOfType<IntegerAttr>(other, kAliasesAttrName))
          if (otherIndex.getInt() == index.getInt())
            return op->emitOpError()
                   << "arguments " << std::min(other, argIndex) << " and "
                   << std::max(other, argIndex) << " both alias result "
                   << index.getInt();
    return success();
  }
  return op->emitOpError() << "unknown xla argument attribute '"
                           << attr.getName().getValue() << "'";
}

LogicalResult XlaDialect::verifyRegionResultAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0)
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' is only valid on function results";
  if (attr.getName() == kShardingAttrName)
    return verifyShardingOf(op, attr.getValue(),
                            func.getResultTypes()[resultIndex],
                            "result " + Twine(resultIndex));
  if (attr.getName() == kGlobalTypeAttrName)
    return verifyGlobalType(op, attr.getValue(),
                            func.getResultTypes()[resultIndex],
                            "result " + Twine(resultIndex));
  return op->emitOpError() << "unknown xla result attribute '"
                           << attr.getName().getValue() << "'";
}
