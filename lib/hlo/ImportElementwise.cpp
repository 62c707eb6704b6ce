//===- ImportElementwise.cpp - HLO's elementwise opcodes ------------------===//
//
// Unary and binary arithmetic, compare, select, clamp, convert,
// bitcast-convert, and the identities (copy, opt-barrier).
//
// The xla dialect's integers are signless and its ops read them as signed;
// HLO's u8/u32/u64 are imported as those bits. Where the sign matters, the
// importer writes the unsigned meaning with signless ops: orderings compare
// (and max/min/clamp pick) with the sign bit flipped, which maps unsigned
// order onto signed order; division, remainder and widening converts work
// on the zero-extended value in 64 bits. (JAX's threefry and PyTorch/XLA's
// random bits are u32: their high half would otherwise compare negative.)
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

/// The result type of an elementwise `inst` with `n` array operands, which
/// go to `operands`.
FailureOr<RankedTensorType> getArrayOperands(ComputationImporter &ci,
                                             const Instruction &inst,
                                             unsigned n,
                                             SmallVectorImpl<Value> &operands) {
  if (failed(ci.expectOperands(inst, n)) ||
      failed(ci.getOperands(inst, operands)))
    return failure();
  return ci.getResultType(inst);
}

bool isUnsigned(const Shape &shape) {
  return !shape.isTuple &&
         (shape.elementType == "u8" || shape.elementType == "u16" ||
          shape.elementType == "u32" || shape.elementType == "u64");
}

bool hasUnsignedOperand(ComputationImporter &ci, const Instruction &inst) {
  for (unsigned i = 0, e = inst.operands.size(); i < e; ++i)
    if (isUnsigned(ci.getOperandShape(inst, i)))
      return true;
  return false;
}

unsigned intWidth(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementTypeBitWidth();
}

/// A splat of `value` (as `type`'s integer bits).
Value splatInt(ComputationImporter &ci, const Instruction &inst,
               RankedTensorType type, const APInt &value) {
  auto attr = DenseElementsAttr::get(type, value);
  return ci.create<xla::ConstantOp>(inst, type, {}, {ci.named("value", attr)});
}

/// `x` with its sign bit flipped: unsigned order becomes signed order.
Value flipSign(ComputationImporter &ci, const Instruction &inst, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Value bit = splatInt(ci, inst, type,
                       APInt::getSignedMinValue(type.getElementTypeBitWidth()));
  return ci.create<xla::XorOp>(inst, type, {x, bit});
}

/// The unsigned value of the narrower-than-64-bit integer `x` in i64.
Value zeroExtend(ComputationImporter &ci, const Instruction &inst, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned width = type.getElementTypeBitWidth();
  auto wide = type.clone(ci.getBuilder().getI64Type());
  Value extended = ci.create<xla::ConvertOp>(inst, wide, {x});
  return ci.create<xla::AndOp>(
      inst, wide,
      {extended, splatInt(ci, inst, wide, APInt::getLowBitsSet(64, width))});
}

/// maximum, minimum of unsigned operands: on flipped bits, flipped back.
template <typename OpTy>
LogicalResult
importUnsignedMinMax(ComputationImporter &ci, const Instruction &inst,
                     ArrayRef<Value> operands, RankedTensorType type) {
  Value r = ci.create<OpTy>(
      inst, type,
      {flipSign(ci, inst, operands[0]), flipSign(ci, inst, operands[1])});
  ci.setResult(inst, flipSign(ci, inst, r));
  return success();
}

/// divide and remainder of unsigned operands: on their 64-bit values.
template <typename OpTy>
LogicalResult
importUnsignedDivision(ComputationImporter &ci, const Instruction &inst,
                       ArrayRef<Value> operands, RankedTensorType type) {
  if (intWidth(operands[0]) == 64)
    return ci.unsupported(inst, "unsigned 64-bit division");
  Value a = zeroExtend(ci, inst, operands[0]);
  Value b = zeroExtend(ci, inst, operands[1]);
  Value r = ci.create<OpTy>(inst, a.getType(), {a, b});
  ci.setResult(inst, ci.create<xla::ConvertOp>(inst, type, {r}).getResult());
  return success();
}

template <typename OpTy>
LogicalResult importUnary(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 1, operands);
  if (failed(type))
    return failure();
  ci.setResult(inst, ci.create<OpTy>(inst, *type, operands)->getResults());
  return success();
}

template <typename OpTy>
LogicalResult importBinary(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 2, operands);
  if (failed(type))
    return failure();
  if (hasUnsignedOperand(ci, inst)) {
    if constexpr (std::is_same_v<OpTy, xla::MaxOp> ||
                  std::is_same_v<OpTy, xla::MinOp>)
      return importUnsignedMinMax<OpTy>(ci, inst, operands, *type);
    if constexpr (std::is_same_v<OpTy, xla::DivOp> ||
                  std::is_same_v<OpTy, xla::RemOp>)
      return importUnsignedDivision<OpTy>(ci, inst, operands, *type);
    if constexpr (std::is_same_v<OpTy, xla::PowOp>)
      return ci.unsupported(inst, "power of unsigned integers");
  }
  ci.setResult(inst, ci.create<OpTy>(inst, *type, operands)->getResults());
  return success();
}

LogicalResult importCompare(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 2, operands);
  if (failed(type))
    return failure();
  const HloAttr *attr = ci.getAttr(inst, "direction", /*required=*/true);
  if (!attr)
    return failure();
  std::optional<xla::CompareDirection> direction =
      llvm::StringSwitch<std::optional<xla::CompareDirection>>(attr->value)
          .Case("EQ", xla::CompareDirection::eq)
          .Case("NE", xla::CompareDirection::ne)
          .Case("LT", xla::CompareDirection::lt)
          .Case("LE", xla::CompareDirection::le)
          .Case("GT", xla::CompareDirection::gt)
          .Case("GE", xla::CompareDirection::ge)
          .Default(std::nullopt);
  if (!direction)
    return ci.attrError(*attr, "unknown direction '" + attr->value +
                                   "' (expected EQ, NE, LT, LE, GT or GE)");
  // Without `type=`, the operands' element type decides.
  bool isUnsignedOrder = hasUnsignedOperand(ci, inst);
  if (const HloAttr *cmpType = inst.findAttribute("type"))
    isUnsignedOrder = cmpType->value == "UNSIGNED";
  if (isUnsignedOrder && *direction != xla::CompareDirection::eq &&
      *direction != xla::CompareDirection::ne)
    for (Value &operand : operands)
      operand = flipSign(ci, inst, operand);
  auto op = ci.create<xla::CompareOp>(
      inst, *type, operands,
      {ci.named("direction",
                xla::CompareDirectionAttr::get(ci.getContext(), *direction))});
  ci.setResult(inst, op->getResults());
  return success();
}

LogicalResult importSelect(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 3, operands);
  if (failed(type))
    return failure();
  // A scalar predicate (HLO's older form) selects whole arrays.
  operands[0] = ci.broadcastScalar(inst, operands[0], *type);
  ci.setResult(inst,
               ci.create<xla::SelectOp>(inst, *type, operands)->getResults());
  return success();
}

LogicalResult importClamp(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 3, operands);
  if (failed(type))
    return failure();
  operands[0] = ci.broadcastScalar(inst, operands[0], *type);
  operands[2] = ci.broadcastScalar(inst, operands[2], *type);
  if (!hasUnsignedOperand(ci, inst)) {
    ci.setResult(inst,
                 ci.create<xla::ClampOp>(inst, *type, operands)->getResults());
    return success();
  }
  for (Value &operand : operands)
    operand = flipSign(ci, inst, operand);
  Value clamped = ci.create<xla::ClampOp>(inst, *type, operands);
  ci.setResult(inst, flipSign(ci, inst, clamped));
  return success();
}

LogicalResult importConvert(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 1, operands);
  if (failed(type))
    return failure();
  Value x = operands[0];
  Type from = cast<RankedTensorType>(x.getType()).getElementType();
  Type to = type->getElementType();
  bool widens = isa<FloatType>(to) ||
                (isa<IntegerType>(to) &&
                 to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth());
  if (isUnsigned(ci.getOperandShape(inst, 0)) && widens) {
    if (intWidth(x) < 64) {
      ci.setResult(inst, ci.create<xla::ConvertOp>(inst, *type,
                                                   {zeroExtend(ci, inst, x)})
                             .getResult());
      return success();
    }
    // u64 to floating point: values with the top bit set convert halved
    // (keeping the low bit, so rounding is unchanged) and doubled.
    auto xType = cast<RankedTensorType>(x.getType());
    auto one = splatInt(ci, inst, xType, APInt(64, 1));
    Value half = ci.create<xla::OrOp>(
        inst, xType,
        {ci.create<xla::ShiftRightLogicalOp>(inst, xType, {x, one}),
         ci.create<xla::AndOp>(inst, xType, {x, one})});
    Value halfConverted = ci.create<xla::ConvertOp>(inst, *type, {half});
    Value doubled =
        ci.create<xla::AddOp>(inst, *type, {halfConverted, halfConverted});
    Value direct = ci.create<xla::ConvertOp>(inst, *type, {x});
    auto zero = splatInt(ci, inst, xType, APInt(64, 0));
    Value small = ci.create<xla::CompareOp>(
        inst, type->clone(ci.getBuilder().getI1Type()), {x, zero},
        {ci.named("direction",
                  xla::CompareDirectionAttr::get(ci.getContext(),
                                                 xla::CompareDirection::ge))});
    ci.setResult(inst,
                 ci.create<xla::SelectOp>(inst, *type, {small, direct, doubled})
                     .getResult());
    return success();
  }
  if (isUnsigned(inst.shape) && isa<FloatType>(from)) {
    // Through the 64-bit integer that holds every value of the narrower
    // unsigned type.
    if (to.getIntOrFloatBitWidth() == 64)
      return ci.unsupported(inst, "floating point to u64");
    Value wide = ci.create<xla::ConvertOp>(
        inst,
        cast<RankedTensorType>(x.getType()).clone(ci.getBuilder().getI64Type()),
        {x});
    ci.setResult(inst,
                 ci.create<xla::ConvertOp>(inst, *type, {wide}).getResult());
    return success();
  }
  ci.setResult(inst, ci.create<xla::ConvertOp>(inst, *type, {x}).getResult());
  return success();
}

/// abs and sign of unsigned integers: the value itself, and 0 or 1.
LogicalResult importUnsignedAwareUnary(ComputationImporter &ci,
                                       const Instruction &inst) {
  bool isSign = inst.opcode == "sign";
  if (!hasUnsignedOperand(ci, inst))
    return isSign ? importUnary<xla::SignOp>(ci, inst)
                  : importUnary<xla::AbsOp>(ci, inst);
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = getArrayOperands(ci, inst, 1, operands);
  if (failed(type))
    return failure();
  if (!isSign) {
    ci.setResult(inst, operands[0]);
    return success();
  }
  Value zero = splatInt(ci, inst, *type, APInt(intWidth(operands[0]), 0));
  Value nonzero = ci.create<xla::CompareOp>(
      inst, type->clone(ci.getBuilder().getI1Type()), {operands[0], zero},
      {ci.named("direction", xla::CompareDirectionAttr::get(
                                 ci.getContext(), xla::CompareDirection::ne))});
  ci.setResult(inst,
               ci.create<xla::ConvertOp>(inst, *type, {nonzero}).getResult());
  return success();
}

/// copy and opt-barrier: the operand itself (tuples included).
LogicalResult importIdentity(ComputationImporter &ci, const Instruction &inst) {
  if (failed(ci.expectOperands(inst, 1)))
    return failure();
  ci.setResult(inst, SmallVector<Value>(ci.getOperandLeaves(inst, 0)));
  return success();
}

} // namespace

void xspmd::hlo::addElementwiseImporters(OpImporterTable &table) {
  table["add"] = importBinary<xla::AddOp>;
  table["subtract"] = importBinary<xla::SubOp>;
  table["multiply"] = importBinary<xla::MulOp>;
  table["divide"] = importBinary<xla::DivOp>;
  table["maximum"] = importBinary<xla::MaxOp>;
  table["minimum"] = importBinary<xla::MinOp>;
  table["power"] = importBinary<xla::PowOp>;
  table["and"] = importBinary<xla::AndOp>;
  table["or"] = importBinary<xla::OrOp>;
  table["xor"] = importBinary<xla::XorOp>;
  table["atan2"] = importBinary<xla::Atan2Op>;
  table["remainder"] = importBinary<xla::RemOp>;
  table["shift-left"] = importBinary<xla::ShiftLeftOp>;
  table["shift-right-arithmetic"] = importBinary<xla::ShiftRightArithmeticOp>;
  table["shift-right-logical"] = importBinary<xla::ShiftRightLogicalOp>;
  table["not"] = importUnary<xla::NotOp>;
  table["negate"] = importUnary<xla::NegOp>;
  table["abs"] = importUnsignedAwareUnary;
  table["exponential"] = importUnary<xla::ExpOp>;
  table["log"] = importUnary<xla::LogOp>;
  table["tanh"] = importUnary<xla::TanhOp>;
  table["sqrt"] = importUnary<xla::SqrtOp>;
  table["rsqrt"] = importUnary<xla::RsqrtOp>;
  table["logistic"] = importUnary<xla::SigmoidOp>;
  table["floor"] = importUnary<xla::FloorOp>;
  table["ceil"] = importUnary<xla::CeilOp>;
  table["round-nearest-afz"] = importUnary<xla::RoundNearestAfzOp>;
  table["round-nearest-even"] = importUnary<xla::RoundNearestEvenOp>;
  table["sign"] = importUnsignedAwareUnary;
  table["erf"] = importUnary<xla::ErfOp>;
  table["cosine"] = importUnary<xla::CosOp>;
  table["sine"] = importUnary<xla::SinOp>;
  table["tan"] = importUnary<xla::TanOp>;
  table["log-plus-one"] = importUnary<xla::Log1pOp>;
  table["exponential-minus-one"] = importUnary<xla::Expm1Op>;
  table["cbrt"] = importUnary<xla::CbrtOp>;
  table["is-finite"] = importUnary<xla::IsFiniteOp>;
  table["convert"] = importConvert;
  table["bitcast-convert"] = importUnary<xla::BitcastConvertOp>;
  table["compare"] = importCompare;
  table["select"] = importSelect;
  table["clamp"] = importClamp;
  table["copy"] = importIdentity;
  table["opt-barrier"] = importIdentity;
}
