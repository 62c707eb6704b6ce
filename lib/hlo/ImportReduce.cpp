//===- ImportReduce.cpp - HLO's reductions --------------------------------===//
//
// reduce whose computation is one of add, multiply, maximum, minimum, and,
// or applied to its two parameters → xla.reduce, combined with the initial
// value unless that is the reduction's identity. Other reductions
// (variadic, arbitrary bodies) and the windowed ones (reduce-window,
// select-and-scatter) need region forms: reported as unsupported.
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

LogicalResult importReduce(ComputationImporter &ci, const Instruction &inst) {
  const Computation *body = ci.getModule().lookupComputation(inst, "to_apply");
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  if (!body || failed(dims))
    return failure();
  if (inst.operands.size() != 2 || inst.shape.isTuple)
    return ci.unsupported(inst, "variadic reductions (" +
                                    Twine(inst.operands.size() / 2) +
                                    " inputs) need xla.reduce_region");
  std::optional<Reducer> reducer =
      getReducer(ComputationImporter::getBinaryReducer(*body));
  if (!reducer)
    return ci.unsupported(inst, "reduction computation '" + body->name +
                                    "' is not one of add, multiply, maximum, "
                                    "minimum, and, or of its parameters");
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  SmallVector<Value> operands;
  if (failed(type) || failed(ci.getOperands(inst, operands)))
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
    result = reducer->combine(ci.getBuilder(), ci.getLoc(inst), result,
                              initValue);
  }
  ci.setResult(inst, result);
  return success();
}

LogicalResult importWindowed(ComputationImporter &ci,
                             const Instruction &inst) {
  return ci.unsupported(inst, "windowed reductions need xla.reduce_window "
                              "and xla.select_and_scatter");
}

} // namespace

void xspmd::hlo::addReduceImporters(OpImporterTable &table) {
  table["reduce"] = importReduce;
  table["reduce-window"] = importWindowed;
  table["select-and-scatter"] = importWindowed;
}
