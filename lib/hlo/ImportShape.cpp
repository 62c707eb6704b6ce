//===- ImportShape.cpp - HLO's constants and data-movement opcodes --------===//
//
// constant, iota, broadcast, reshape, transpose, reverse, slice,
// dynamic-slice, dynamic-update-slice, concatenate, pad, and the tuple
// opcodes (tuple, get-tuple-element), which only regroup values.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

/// One scalar of a literal as an attribute value of `element`.
FailureOr<Attribute> readScalar(ComputationImporter &ci,
                                const Instruction &inst, StringRef text,
                                Type element) {
  if (auto intType = dyn_cast<IntegerType>(element)) {
    int64_t v;
    if (intType.getWidth() == 1 && (text == "true" || text == "false"))
      return Attribute(IntegerAttr::get(intType, APInt(1, text == "true")));
    if (text.getAsInteger(10, v)) {
      uint64_t u;
      if (text.getAsInteger(10, u))
        return ci.emitError(inst)
               << "constant: '" << text << "' is not an integer";
      v = static_cast<int64_t>(u);
    }
    return Attribute(IntegerAttr::get(intType, APInt(intType.getWidth(), v,
                                                     /*isSigned=*/true,
                                                     /*implicitTrunc=*/true)));
  }
  auto floatType = cast<FloatType>(element);
  double d;
  std::string lower = text.lower();
  StringRef t(lower);
  bool negative = t.consume_front("-");
  if (t == "inf" || t == "nan") {
    APFloat f = t == "inf"
                    ? APFloat::getInf(floatType.getFloatSemantics(), negative)
                    : APFloat::getNaN(floatType.getFloatSemantics(), negative);
    return Attribute(FloatAttr::get(floatType, f));
  }
  if (text.getAsDouble(d))
    return ci.emitError(inst) << "constant: '" << text << "' is not a number";
  APFloat f(d);
  bool lost;
  f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return Attribute(FloatAttr::get(floatType, f));
}

LogicalResult importConstant(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type))
    return failure();
  std::vector<std::string> scalars;
  std::string error;
  if (!readLiteral(inst.literal, scalars, error))
    return ci.emitError(inst) << "constant: " << error;
  if ((int64_t)scalars.size() != type->getNumElements())
    return ci.emitError(inst)
           << "constant: the literal has " << scalars.size()
           << " values but the shape has " << type->getNumElements();
  SmallVector<Attribute> values;
  for (const std::string &s : scalars) {
    FailureOr<Attribute> v = readScalar(ci, inst, s, type->getElementType());
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  auto value = DenseElementsAttr::get(*type, values);
  ci.setResult(inst, ci.create<xla::ConstantOp>(inst, *type, {},
                                                {ci.named("value", value)})
                         ->getResults());
  return success();
}

LogicalResult importIota(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  FailureOr<int64_t> dim = ci.getInt(inst, "iota_dimension");
  if (failed(type) || failed(dim))
    return failure();
  ci.setResult(inst,
               ci.create<xla::IotaOp>(
                     inst, *type, {},
                     {ci.named("dim", ci.getBuilder().getI64IntegerAttr(*dim))})
                   ->getResults());
  return success();
}

/// An op with one operand and one DenseI64Array attribute read from an
/// HLO integer list (`dimensions={...}`).
template <typename OpTy>
LogicalResult importWithDims(ComputationImporter &ci, const Instruction &inst,
                             StringRef hloName, StringRef attrName) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type) || failed(ci.expectOperands(inst, 1)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, hloName, /*required=*/true);
  if (failed(input) || failed(dims))
    return failure();
  ci.setResult(inst, ci.create<OpTy>(inst, *type, *input,
                                     {ci.named(attrName, ci.i64s(*dims))})
                         ->getResults());
  return success();
}

LogicalResult importBroadcast(ComputationImporter &ci,
                              const Instruction &inst) {
  return importWithDims<xla::BroadcastInDimOp>(ci, inst, "dimensions", "dims");
}
LogicalResult importTranspose(ComputationImporter &ci,
                              const Instruction &inst) {
  return importWithDims<xla::TransposeOp>(ci, inst, "dimensions",
                                          "permutation");
}
LogicalResult importReverse(ComputationImporter &ci, const Instruction &inst) {
  return importWithDims<xla::ReverseOp>(ci, inst, "dimensions", "dims");
}

LogicalResult importReshape(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type) || failed(ci.expectOperands(inst, 1)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  if (failed(input))
    return failure();
  ci.setResult(inst,
               ci.create<xla::ReshapeOp>(inst, *type, *input)->getResults());
  return success();
}

LogicalResult importSlice(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  const HloAttr *attr = ci.getAttr(inst, "slice", /*required=*/true);
  if (failed(type) || !attr || failed(ci.expectOperands(inst, 1)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  if (failed(input))
    return failure();
  SliceDims slice;
  std::string error;
  if (!readSlice(attr->value, slice, error))
    return ci.attrError(*attr, error);
  ci.setResult(inst, ci.create<xla::SliceOp>(
                           inst, *type, *input,
                           {ci.named("start", ci.i64s(slice.start)),
                            ci.named("limit", ci.i64s(slice.limit)),
                            ci.named("strides", ci.i64s(slice.stride))})
                         ->getResults());
  return success();
}

LogicalResult importDynamicSlice(ComputationImporter &ci,
                                 const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  FailureOr<SmallVector<int64_t>> sizes =
      ci.getIntList(inst, "dynamic_slice_sizes", /*required=*/true);
  SmallVector<Value> operands;
  if (failed(type) || failed(sizes) || failed(ci.getOperands(inst, operands)))
    return failure();
  if (operands.size() < 1)
    return ci.emitError(inst) << "dynamic-slice needs an operand";
  ci.setResult(
      inst, ci.create<xla::DynamicSliceOp>(inst, *type, operands,
                                           {ci.named("sizes", ci.i64s(*sizes))})
                ->getResults());
  return success();
}

LogicalResult importDynamicUpdateSlice(ComputationImporter &ci,
                                       const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  SmallVector<Value> operands;
  if (failed(type) || failed(ci.getOperands(inst, operands)))
    return failure();
  if (operands.size() < 2)
    return ci.emitError(inst)
           << "dynamic-update-slice needs an operand and an update";
  ci.setResult(inst, ci.create<xla::DynamicUpdateSliceOp>(inst, *type, operands)
                         ->getResults());
  return success();
}

LogicalResult importConcatenate(ComputationImporter &ci,
                                const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  SmallVector<Value> operands;
  if (failed(type) || failed(dims) || failed(ci.getOperands(inst, operands)))
    return failure();
  if (dims->size() != 1)
    return ci.attrError(*inst.findAttribute("dimensions"),
                        "expected one dimension");
  ci.setResult(
      inst,
      ci.create<xla::ConcatenateOp>(
            inst, *type, operands,
            {ci.named("dim", ci.getBuilder().getI64IntegerAttr(dims->front()))})
          ->getResults());
  return success();
}

LogicalResult importPad(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  const HloAttr *attr = ci.getAttr(inst, "padding", /*required=*/true);
  if (failed(type) || !attr || failed(ci.expectOperands(inst, 2)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  if (failed(input))
    return failure();
  PaddingDims padding;
  std::string error;
  if (!readPadding(attr->value, padding, error))
    return ci.attrError(*attr, error);
  auto padWith = [&](Value v, double value) {
    auto t = cast<RankedTensorType>(v.getType());
    return ci
        .create<xla::PadOp>(
            inst, type->clone(t.getElementType()), v,
            {ci.named("low", ci.i64s(padding.low)),
             ci.named("high", ci.i64s(padding.high)),
             ci.named("interior", ci.i64s(padding.interior)),
             ci.named("value", ci.getBuilder().getF64FloatAttr(value))})
        .getResult();
  };
  std::optional<double> value =
      ComputationImporter::getScalarConstant(ci.getOperandInstruction(inst, 1));
  if (value) {
    ci.setResult(inst, padWith(*input, *value));
    return success();
  }
  // A computed padding value (XLA allows any scalar): the input padded with
  // zeros where a padded mask of `true` says so, the value elsewhere.
  FailureOr<Value> padValue = ci.getOperand(inst, 1);
  if (failed(padValue))
    return failure();
  auto valueType = cast<RankedTensorType>(padValue->getType());
  auto inputType = cast<RankedTensorType>(input->getType());
  if (valueType.getRank() != 0 ||
      valueType.getElementType() != inputType.getElementType())
    return ci.emitError(inst)
           << "pad: the padding value must be a scalar of "
           << inputType.getElementType() << ", not " << valueType;
  auto maskType = inputType.clone(ci.getBuilder().getI1Type());
  Value ones = ci.create<xla::ConstantOp>(
      inst, maskType, {},
      {ci.named("value", DenseElementsAttr::get(maskType, true))});
  Value mask = padWith(ones, 0.0);
  Value fill = ci.create<xla::BroadcastInDimOp>(inst, *type, *padValue,
                                                {ci.named("dims", ci.i64s({}))})
                   .getResult();
  ci.setResult(inst,
               ci.create<xla::SelectOp>(
                     inst, *type, ValueRange{mask, padWith(*input, 0.0), fill})
                   ->getResults());
  return success();
}

LogicalResult importTuple(ComputationImporter &ci, const Instruction &inst) {
  SmallVector<Value> leaves;
  for (unsigned i = 0, e = inst.operands.size(); i < e; ++i)
    llvm::append_range(leaves, ci.getOperandLeaves(inst, i));
  if ((int64_t)leaves.size() != inst.shape.numLeaves())
    return ci.emitError(inst)
           << "tuple: the operands hold " << leaves.size()
           << " arrays but the shape has " << inst.shape.numLeaves();
  ci.setResult(inst, leaves);
  return success();
}

LogicalResult importGetTupleElement(ComputationImporter &ci,
                                    const Instruction &inst) {
  FailureOr<int64_t> index = ci.getInt(inst, "index");
  if (failed(index) || failed(ci.expectOperands(inst, 1)))
    return failure();
  const Shape &tuple = ci.getOperandShape(inst, 0);
  if (!tuple.isTuple || *index < 0 || *index >= (int64_t)tuple.elements.size())
    return ci.emitError(inst) << "get-tuple-element: index " << *index
                              << " is not an element of the operand";
  ArrayRef<Value> leaves = ci.getOperandLeaves(inst, 0);
  int64_t offset = tuple.leafOffset(*index);
  int64_t count = tuple.elements[*index].numLeaves();
  ci.setResult(inst, leaves.slice(offset, count));
  return success();
}

} // namespace

void xspmd::hlo::addShapeImporters(OpImporterTable &table) {
  table["constant"] = importConstant;
  table["iota"] = importIota;
  table["broadcast"] = importBroadcast;
  table["reshape"] = importReshape;
  table["transpose"] = importTranspose;
  table["reverse"] = importReverse;
  table["slice"] = importSlice;
  table["dynamic-slice"] = importDynamicSlice;
  table["dynamic-update-slice"] = importDynamicUpdateSlice;
  table["concatenate"] = importConcatenate;
  table["pad"] = importPad;
  table["tuple"] = importTuple;
  table["get-tuple-element"] = importGetTupleElement;
}
