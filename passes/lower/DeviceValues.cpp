//===- DeviceValues.cpp - device-dependent values as tables ---------------===//

#include "passes/lower/DeviceValues.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <map>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::lower {

namespace {

/// One value per device, or a single value every device holds.
using DeviceInts = std::vector<int64_t>;

int64_t at(const DeviceInts &values, int64_t device) {
  return values.size() == 1 ? values[0] : values[device];
}

bool isIntegerScalar(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 &&
         isa<IntegerType>(tensor.getElementType());
}

/// The value of a scalar integer op on one device, given its operands'
/// values; nullopt when the op is not evaluated here or the result would
/// not be what the simulator computes (overflow, division by zero).
std::optional<int64_t> evaluate(Operation *op, ArrayRef<int64_t> a,
                                Type resultElem) {
  using R = std::optional<int64_t>;
  bool isBool = resultElem.isInteger(1);
  R r = llvm::TypeSwitch<Operation *, R>(op)
            .Case([&](AddOp) { return llvm::checkedAdd(a[0], a[1]); })
            .Case([&](SubOp) { return llvm::checkedSub(a[0], a[1]); })
            .Case([&](MulOp) { return llvm::checkedMul(a[0], a[1]); })
            .Case([&](DivOp) -> R {
              if (a[1] == 0 || (a[0] == INT64_MIN && a[1] == -1))
                return std::nullopt;
              return a[0] / a[1]; // rounds toward zero, as the simulator
            })
            .Case([&](MaxOp) { return std::max(a[0], a[1]); })
            .Case([&](MinOp) { return std::min(a[0], a[1]); })
            .Case([&](NegOp) { return llvm::checkedSub<int64_t>(0, a[0]); })
            .Case([&](AbsOp) -> R {
              if (a[0] == INT64_MIN)
                return std::nullopt;
              return std::abs(a[0]);
            })
            .Case([&](AndOp) { return a[0] & a[1]; })
            .Case([&](OrOp) { return a[0] | a[1]; })
            .Case([&](XorOp) { return a[0] ^ a[1]; })
            .Case([&](NotOp) -> R { return isBool ? !a[0] : ~a[0]; })
            .Case([&](xla::CompareOp cmp) -> R {
              switch (cmp.getDirection()) {
              case CompareDirection::eq:
                return a[0] == a[1];
              case CompareDirection::ne:
                return a[0] != a[1];
              case CompareDirection::lt:
                return a[0] < a[1];
              case CompareDirection::le:
                return a[0] <= a[1];
              case CompareDirection::gt:
                return a[0] > a[1];
              case CompareDirection::ge:
                return a[0] >= a[1];
              }
              return std::nullopt;
            })
            .Case([&](SelectOp) { return a[0] ? a[1] : a[2]; })
            .Case([&](ConvertOp) -> R { return isBool ? a[0] != 0 : a[0]; })
            .Default([](Operation *) { return std::nullopt; });
  if (r && !fitsElementType(*r, resultElem))
    return std::nullopt;
  return r;
}

class DeviceValueRewriter {
public:
  DeviceValueRewriter(const DeviceTarget &target,
                      SymbolTableCollection &symbols, DeviceValueStats &stats)
      : target(target), symbols(symbols), stats(stats) {}

  LogicalResult run(func::FuncOp func);

private:
  /// The per-device values of a scalar integer value, if known.
  const DeviceInts *lookup(Value v);
  /// A value holding `values` at the position of `op` (shared with an
  /// earlier identical one of the same block).
  Value build(Operation *op, RankedTensorType type, DeviceInts values);
  void replace(Operation *op, Value with);
  FailureOr<MeshAttr> meshOf(Operation *op, FlatSymbolRefAttr ref);

  LogicalResult lowerAxisIndex(AxisIndexOp op);
  LogicalResult lowerAllSlice(AllSliceOp op);
  void tryFold(Operation *op);

  const DeviceTarget &target;
  SymbolTableCollection &symbols;
  DeviceValueStats &stats;
  llvm::DenseMap<Value, DeviceInts> known;
  std::map<std::pair<Type, DeviceInts>, Value,
           bool (*)(const std::pair<Type, DeviceInts> &,
                    const std::pair<Type, DeviceInts> &)>
      built{[](const std::pair<Type, DeviceInts> &x,
               const std::pair<Type, DeviceInts> &y) {
        if (x.first != y.first)
          return x.first.getAsOpaquePointer() < y.first.getAsOpaquePointer();
        return x.second < y.second;
      }};
  /// Ops whose results may have lost their last use.
  llvm::SetVector<Operation *> maybeDead;
};

} // namespace

Value buildDeviceValue(OpBuilder &b, Location loc, RankedTensorType type,
                       ArrayRef<int64_t> values) {
  bool uniform = llvm::all_equal(values);
  if (uniform) {
    unsigned width = type.getElementTypeBitWidth();
    APInt value(width, static_cast<uint64_t>(values.front()),
                /*isSigned=*/width > 1);
    return ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
  }
  return DeviceTableOp::create(b, loc, type, b.getDenseI64ArrayAttr(values));
}

const DeviceInts *DeviceValueRewriter::lookup(Value v) {
  auto it = known.find(v);
  if (it != known.end())
    return &it->second;
  if (!isIntegerScalar(v.getType()))
    return nullptr;
  Operation *def = v.getDefiningOp();
  if (auto table = dyn_cast_or_null<DeviceTableOp>(def)) {
    if (static_cast<int64_t>(table.getValues().size()) != target.numDevices)
      return nullptr;
    return &(known[v] = DeviceInts(table.getValues().begin(),
                                   table.getValues().end()));
  }
  auto constant = dyn_cast_or_null<ConstantOp>(def);
  auto elements =
      constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue()) : nullptr;
  if (!elements)
    return nullptr;
  APInt value = *elements.getValues<APInt>().begin();
  int64_t v0 =
      value.getBitWidth() == 1 ? value.getZExtValue() : value.getSExtValue();
  // Later uniform values of this type reuse the constant (it precedes them).
  built.try_emplace({v.getType(), DeviceInts{v0}}, v);
  return &(known[v] = DeviceInts{v0});
}

Value DeviceValueRewriter::build(Operation *op, RankedTensorType type,
                                 DeviceInts values) {
  if (llvm::all_equal(values))
    values.resize(1);
  auto key = std::make_pair(Type(type), values);
  auto it = built.find(key);
  if (it != built.end() && it->second.getParentBlock() == op->getBlock())
    return it->second;
  OpBuilder b(op);
  Value v = buildDeviceValue(b, op->getLoc(), type, values);
  built[key] = v;
  known[v] = std::move(values);
  return v;
}

void DeviceValueRewriter::replace(Operation *op, Value with) {
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp())
      maybeDead.insert(def);
  maybeDead.remove(op);
  for (Value result : op->getResults())
    known.erase(result);
  op->getResult(0).replaceAllUsesWith(with);
  op->erase();
  if (with.use_empty())
    maybeDead.insert(with.getDefiningOp());
}

FailureOr<MeshAttr> DeviceValueRewriter::meshOf(Operation *op,
                                                FlatSymbolRefAttr ref) {
  if (!ref)
    return MeshAttr();
  MeshOp meshOp = lookupMesh(op, ref, &symbols);
  if (!meshOp)
    return op->emitOpError() << "names unknown mesh " << ref;
  MeshAttr mesh = meshOp.getMesh();
  if (mesh.getNumDevices() != target.numDevices)
    return op->emitOpError()
           << "names mesh " << ref << " of " << mesh.getNumDevices()
           << " devices but the program is lowered for " << target.numDevices;
  return mesh;
}

LogicalResult DeviceValueRewriter::lowerAxisIndex(AxisIndexOp op) {
  FailureOr<MeshAttr> mesh = meshOf(op, op.getMeshAttr());
  if (failed(mesh))
    return failure();
  int64_t axis = mesh->getAxisIndex(op.getAxis());
  int64_t stride = 1;
  for (int64_t a = mesh->getRank() - 1; a > axis; --a)
    stride *= mesh->getAxes()[a].getSize();
  int64_t size = mesh->getAxes()[axis].getSize();
  DeviceInts coordinate(target.numDevices, 0);
  for (auto [position, device] : llvm::enumerate(mesh->getDeviceArray()))
    coordinate[device] = (static_cast<int64_t>(position) / stride) % size;
  replace(op, build(op, op.getType(), std::move(coordinate)));
  return success();
}

LogicalResult DeviceValueRewriter::lowerAllSlice(AllSliceOp op) {
  FailureOr<MeshAttr> mesh = meshOf(op, op.getMeshAttr());
  if (failed(mesh))
    return failure();
  DeviceGroups groups = resolveParticipantGroups(
      cast<CollectiveOpInterface>(op.getOperation()), *mesh, target.numDevices);
  RankedTensorType result = op.getType();
  int64_t dim = op.getDim(), block = result.getDimSize(dim);
  DeviceInts offset(target.numDevices, 0);
  for (const auto &group : groups)
    for (auto [position, device] : llvm::enumerate(group))
      offset[device] = static_cast<int64_t>(position) * block;
  Builder b(op.getContext());
  bool wide = llvm::any_of(
      offset, [&](int64_t v) { return !fitsElementType(v, b.getI32Type()); });
  auto indexType =
      RankedTensorType::get({}, wide ? b.getI64Type() : b.getI32Type());
  SmallVector<Value> offsets;
  for (int64_t d = 0; d < result.getRank(); ++d)
    offsets.push_back(d == dim ? build(op, indexType, offset)
                               : build(op, indexType, DeviceInts{0}));
  OpBuilder builder(op);
  Value sliced = DynamicSliceOp::create(
      builder, op.getLoc(), result, op.getInput(), offsets,
      builder.getDenseI64ArrayAttr(result.getShape()));
  replace(op, sliced);
  return success();
}

void DeviceValueRewriter::tryFold(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      op->getNumOperands() == 0 || !isIntegerScalar(op->getResult(0).getType()))
    return;
  // Constant operands count too: offsets that became constants (an axis
  // of size 1, a stride of 0) keep folding.
  SmallVector<const DeviceInts *, 3> operands;
  for (Value v : op->getOperands()) {
    const DeviceInts *values = lookup(v);
    if (!values)
      return;
    operands.push_back(values);
  }
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  DeviceInts result(target.numDevices);
  SmallVector<int64_t, 3> args(operands.size());
  for (int64_t d = 0; d < target.numDevices; ++d) {
    for (auto [i, values] : llvm::enumerate(operands))
      args[i] = at(*values, d);
    std::optional<int64_t> r = evaluate(op, args, type.getElementType());
    if (!r)
      return;
    result[d] = *r;
  }
  ++stats.folded;
  replace(op, build(op, type, std::move(result)));
}

LogicalResult DeviceValueRewriter::run(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op != func.getOperation())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    LogicalResult ok = success();
    if (auto axisIndex = dyn_cast<AxisIndexOp>(op))
      ok = lowerAxisIndex(axisIndex);
    else if (auto partitionId = dyn_cast<PartitionIdOp>(op)) {
      DeviceInts ids(target.numDevices);
      for (int64_t d = 0; d < target.numDevices; ++d)
        ids[d] = d;
      replace(op, build(op, partitionId.getType(), std::move(ids)));
    } else if (auto allSlice = dyn_cast<AllSliceOp>(op))
      ok = lowerAllSlice(allSlice);
    else
      tryFold(op);
    if (failed(ok))
      return failure();
  }
  // Tables and constants only the rewritten ops read are gone with them.
  while (!maybeDead.empty()) {
    Operation *op = maybeDead.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        maybeDead.insert(def);
    op->erase();
  }
  func.walk([&](DeviceTableOp) { ++stats.tables; });
  return success();
}

LogicalResult materializeDeviceValues(func::FuncOp func,
                                      const DeviceTarget &target,
                                      SymbolTableCollection &symbols,
                                      DeviceValueStats &stats) {
  return DeviceValueRewriter(target, symbols, stats).run(func);
}

} // namespace xspmd::lower
