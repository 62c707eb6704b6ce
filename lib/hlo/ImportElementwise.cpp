//===- ImportElementwise.cpp - HLO's elementwise opcodes ------------------===//
//
// Unary and binary arithmetic, compare, select, clamp, convert,
// bitcast-convert, and the identities (copy, opt-barrier).
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

template <typename OpTy>
LogicalResult importUnary(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(ci.expectOperands(inst, 1)) ||
      failed(ci.getOperands(inst, operands)) || failed(type))
    return failure();
  ci.setResult(inst, ci.create<OpTy>(inst, *type, operands)->getResults());
  return success();
}

template <typename OpTy>
LogicalResult importBinary(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(ci.expectOperands(inst, 2)) ||
      failed(ci.getOperands(inst, operands)) || failed(type))
    return failure();
  ci.setResult(inst, ci.create<OpTy>(inst, *type, operands)->getResults());
  return success();
}

LogicalResult importCompare(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(ci.expectOperands(inst, 2)) ||
      failed(ci.getOperands(inst, operands)) || failed(type))
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
  if (const HloAttr *cmpType = inst.findAttribute("type"))
    if (cmpType->value == "UNSIGNED")
      return ci.unsupported(inst, "unsigned comparisons (integers are "
                                  "signless in the xla dialect)");
  auto op = ci.create<xla::CompareOp>(
      inst, *type, operands,
      {ci.named("direction",
                xla::CompareDirectionAttr::get(ci.getContext(), *direction))});
  ci.setResult(inst, op->getResults());
  return success();
}

LogicalResult importSelect(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(ci.expectOperands(inst, 3)) ||
      failed(ci.getOperands(inst, operands)) || failed(type))
    return failure();
  // A scalar predicate (HLO's older form) selects whole arrays.
  operands[0] = ci.broadcastScalar(inst, operands[0], *type);
  ci.setResult(inst,
               ci.create<xla::SelectOp>(inst, *type, operands)->getResults());
  return success();
}

LogicalResult importClamp(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> operands;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(ci.expectOperands(inst, 3)) ||
      failed(ci.getOperands(inst, operands)) || failed(type))
    return failure();
  operands[0] = ci.broadcastScalar(inst, operands[0], *type);
  operands[2] = ci.broadcastScalar(inst, operands[2], *type);
  ci.setResult(inst,
               ci.create<xla::ClampOp>(inst, *type, operands)->getResults());
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
  table["abs"] = importUnary<xla::AbsOp>;
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
  table["sign"] = importUnary<xla::SignOp>;
  table["erf"] = importUnary<xla::ErfOp>;
  table["cosine"] = importUnary<xla::CosOp>;
  table["sine"] = importUnary<xla::SinOp>;
  table["tan"] = importUnary<xla::TanOp>;
  table["log-plus-one"] = importUnary<xla::Log1pOp>;
  table["exponential-minus-one"] = importUnary<xla::Expm1Op>;
  table["cbrt"] = importUnary<xla::CbrtOp>;
  table["is-finite"] = importUnary<xla::IsFiniteOp>;
  table["convert"] = importUnary<xla::ConvertOp>;
  table["bitcast-convert"] = importUnary<xla::BitcastConvertOp>;
  table["compare"] = importCompare;
  table["select"] = importSelect;
  table["clamp"] = importClamp;
  table["copy"] = importIdentity;
  table["opt-barrier"] = importIdentity;
}
