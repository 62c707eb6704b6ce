//===- ImportReduce.cpp - HLO's reductions --------------------------------===//
//
// reduce whose computation is one of add, multiply, maximum, minimum, and,
// or applied to its two parameters → xla.reduce, combined with the initial
// value unless that is the reduction's identity; other reductions (N
// inputs, any body) → xla.reduce_region. reduce-window →
// xla.reduce_window, select-and-scatter → xla.select_and_scatter, their
// computations becoming regions.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

struct Reducer {
  xla::ReduceKind kind;
  /// Combines the reduction with the initial value.
  Value (*combine)(OpBuilder &, Location, Value, Value);
};

template <typename OpTy>
Value combineWith(OpBuilder &b, Location loc, Value x, Value y) {
  return OpTy::create(b, loc, x.getType(), x, y).getResult();
}

std::optional<Reducer> getReducer(StringRef opcode) {
  if (opcode == "add")
    return Reducer{xla::ReduceKind::sum, combineWith<xla::AddOp>};
  if (opcode == "multiply")
    return Reducer{xla::ReduceKind::prod, combineWith<xla::MulOp>};
  if (opcode == "maximum")
    return Reducer{xla::ReduceKind::max, combineWith<xla::MaxOp>};
  if (opcode == "minimum")
    return Reducer{xla::ReduceKind::min, combineWith<xla::MinOp>};
  if (opcode == "and")
    return Reducer{xla::ReduceKind::and_, combineWith<xla::AndOp>};
  if (opcode == "or")
    return Reducer{xla::ReduceKind::or_, combineWith<xla::OrOp>};
  return std::nullopt;
}

/// Whether `value` is the identity of `kind` for elements of `element`.
bool isIdentity(xla::ReduceKind kind, double value, Type element) {
  bool isFloat = isa<FloatType>(element);
  unsigned width = element.getIntOrFloatBitWidth();
  double lowest = -std::ldexp(1.0, width - 1),
         highest = std::ldexp(1.0, width - 1) - 1;
  switch (kind) {
  case xla::ReduceKind::sum:
  case xla::ReduceKind::or_:
    return value == 0;
  case xla::ReduceKind::prod:
    return value == 1;
  case xla::ReduceKind::and_:
    return width == 1 ? value == 1 : value == -1;
  case xla::ReduceKind::max:
    return isFloat ? value == -INFINITY : value == lowest;
  case xla::ReduceKind::min:
    return isFloat ? value == INFINITY : value == highest;
  default:
    return false;
  }
}

/// A region op built from `operands`, the instruction's leaf types and
/// `attrs`, whose regions are the named computations.
LogicalResult importWithRegions(ComputationImporter &ci,
                                const Instruction &inst, StringRef opName,
                                ArrayRef<Value> operands,
                                ArrayRef<NamedAttribute> attrs,
                                ArrayRef<const Computation *> bodies) {
  SmallVector<Type> types;
  if (failed(ci.getModule().getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  OperationState state(ci.getLoc(inst), opName);
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(attrs);
  for (size_t i = 0; i < bodies.size(); ++i)
    state.addRegion();
  Operation *op = ci.getBuilder().create(state);
  for (auto [i, body] : llvm::enumerate(bodies))
    if (failed(ci.importRegion(*body, op->getRegion(i))))
      return failure();
  ci.setResult(inst, op->getResults());
  return success();
}

LogicalResult importReduce(ComputationImporter &ci, const Instruction &inst) {
  const Computation *body = ci.getModule().lookupComputation(inst, "to_apply");
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  SmallVector<Value> operands;
  if (!body || failed(dims) || failed(ci.getOperands(inst, operands)))
    return failure();
  if (operands.size() % 2 != 0 || operands.empty())
    return ci.emitError(inst) << "reduce takes N inputs and N initial "
                                 "values; found "
                              << operands.size() << " operands";
  std::optional<Reducer> reducer =
      getReducer(ComputationImporter::getBinaryReducer(*body));
  if (operands.size() != 2 || inst.shape.isTuple || !reducer) {
    int32_t n = operands.size() / 2;
    return importWithRegions(
        ci, inst, xla::ReduceRegionOp::getOperationName(), operands,
        {ci.named("dims", ci.i64s(*dims)),
         ci.named("operandSegmentSizes",
                  ci.getBuilder().getDenseI32ArrayAttr({n, n}))},
        {body});
  }
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type))
    return failure();
  Value result =
      ci.create<xla::ReduceOp>(
            inst, *type, operands[0],
            {ci.named("kind",
                      xla::ReduceKindAttr::get(ci.getContext(), reducer->kind)),
             ci.named("dims", ci.i64s(*dims))})
          .getResult();
  std::optional<double> init =
      ComputationImporter::getScalarConstant(ci.getOperandInstruction(inst, 1));
  if (!init || !isIdentity(reducer->kind, *init, type->getElementType())) {
    Value initValue = ci.broadcastScalar(inst, operands[1], *type);
    result =
        reducer->combine(ci.getBuilder(), ci.getLoc(inst), result, initValue);
  }
  ci.setResult(inst, result);
  return success();
}

/// `window={...}` of a windowed op over `rank` dimensions.
FailureOr<Window> getWindow(ComputationImporter &ci, const Instruction &inst,
                            int64_t rank) {
  const HloAttr *attr = ci.getAttr(inst, "window", /*required=*/true);
  if (!attr)
    return failure();
  Window window;
  std::string error;
  if (!readWindow(attr->value, window, error))
    return ci.attrError(*attr, error);
  if ((int64_t)window.size.size() != rank)
    return ci.attrError(*attr, "the window has " +
                                   std::to_string(window.size.size()) +
                                   " dimensions but the operand has rank " +
                                   std::to_string(rank));
  if (window.reversed)
    return ci.attrError(*attr, "window reversal is not supported");
  return window;
}

SmallVector<int64_t> flatPadding(const Window &window) {
  SmallVector<int64_t> padding;
  for (auto [lo, hi] : llvm::zip(window.padLow, window.padHigh))
    padding.append({lo, hi});
  return padding;
}

LogicalResult importReduceWindow(ComputationImporter &ci,
                                 const Instruction &inst) {
  const Computation *body = ci.getModule().lookupComputation(inst, "to_apply");
  SmallVector<Value> operands;
  if (!body || failed(ci.getOperands(inst, operands)))
    return failure();
  if (operands.size() % 2 != 0 || operands.empty())
    return ci.emitError(inst) << "reduce-window takes N inputs and N initial "
                                 "values; found "
                              << operands.size() << " operands";
  FailureOr<Window> window = getWindow(
      ci, inst, cast<RankedTensorType>(operands[0].getType()).getRank());
  if (failed(window))
    return failure();
  int32_t n = operands.size() / 2;
  return importWithRegions(
      ci, inst, xla::ReduceWindowOp::getOperationName(), operands,
      {ci.named("window_dimensions", ci.i64s(window->size)),
       ci.named("window_strides", ci.i64s(window->stride)),
       ci.named("base_dilations", ci.i64s(window->lhsDilate)),
       ci.named("window_dilations", ci.i64s(window->rhsDilate)),
       ci.named("padding", ci.i64s(flatPadding(*window))),
       ci.named("operandSegmentSizes",
                ci.getBuilder().getDenseI32ArrayAttr({n, n}))},
      {body});
}

LogicalResult importSelectAndScatter(ComputationImporter &ci,
                                     const Instruction &inst) {
  ModuleImporter &m = ci.getModule();
  const Computation *select = m.lookupComputation(inst, "select");
  const Computation *scatter =
      select ? m.lookupComputation(inst, "scatter") : nullptr;
  SmallVector<Value> operands;
  if (!select || !scatter || failed(ci.expectOperands(inst, 3)) ||
      failed(ci.getOperands(inst, operands)))
    return failure();
  FailureOr<Window> window = getWindow(
      ci, inst, cast<RankedTensorType>(operands[0].getType()).getRank());
  if (failed(window))
    return failure();
  if (llvm::any_of(window->lhsDilate, [](int64_t d) { return d != 1; }) ||
      llvm::any_of(window->rhsDilate, [](int64_t d) { return d != 1; }))
    return ci.unsupported(inst, "select-and-scatter with dilations");
  return importWithRegions(
      ci, inst, xla::SelectAndScatterOp::getOperationName(), operands,
      {ci.named("window_dimensions", ci.i64s(window->size)),
       ci.named("window_strides", ci.i64s(window->stride)),
       ci.named("padding", ci.i64s(flatPadding(*window)))},
      {select, scatter});
}

} // namespace

void xspmd::hlo::addReduceImporters(OpImporterTable &table) {
  table["reduce"] = importReduce;
  table["reduce-window"] = importReduceWindow;
  table["select-and-scatter"] = importSelectAndScatter;
}
