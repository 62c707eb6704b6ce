//===- ImportDotConv.cpp - HLO's dot and convolution ----------------------===//
//
// dot → xla.dot_general (operands converted to the result's element type
// when HLO asks for a wider accumulation); convolution → xla.convolution,
// whose layout is fixed (NHWC input, HWIO kernel, NHWC output): other
// dim_labels get transposes around it.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

Value convertTo(ComputationImporter &ci, const Instruction &inst, Value v,
                Type element) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType() == element)
    return v;
  return ci.create<xla::ConvertOp>(inst, type.clone(element), v).getResult();
}

LogicalResult importDot(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  SmallVector<Value> operands;
  if (failed(type) || failed(ci.expectOperands(inst, 2)) ||
      failed(ci.getOperands(inst, operands)))
    return failure();
  FailureOr<SmallVector<int64_t>>
      lb = ci.getIntList(inst, "lhs_batch_dims", false),
      rb = ci.getIntList(inst, "rhs_batch_dims", false),
      lc = ci.getIntList(inst, "lhs_contracting_dims", false),
      rc = ci.getIntList(inst, "rhs_contracting_dims", false);
  if (failed(lb) || failed(rb) || failed(lc) || failed(rc))
    return failure();
  for (Value &v : operands)
    v = convertTo(ci, inst, v, type->getElementType());
  auto op = ci.create<xla::DotGeneralOp>(
      inst, *type, operands,
      {ci.named("lhs_batch", ci.i64s(*lb)), ci.named("rhs_batch", ci.i64s(*rb)),
       ci.named("lhs_contract", ci.i64s(*lc)),
       ci.named("rhs_contract", ci.i64s(*rc))});
  ci.setResult(inst, op->getResults());
  return success();
}

Value transposeIfNeeded(ComputationImporter &ci, const Instruction &inst,
                        Value v, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return ci
      .create<xla::TransposeOp>(inst, type.clone(shape), v,
                                {ci.named("permutation", ci.i64s(perm))})
      .getResult();
}

LogicalResult importConvolution(ComputationImporter &ci,
                                const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  SmallVector<Value> operands;
  const HloAttr *labelsAttr = ci.getAttr(inst, "dim_labels", true);
  if (failed(type) || !labelsAttr || failed(ci.expectOperands(inst, 2)) ||
      failed(ci.getOperands(inst, operands)))
    return failure();
  std::string error;
  ConvLabels labels;
  if (!readDimLabels(labelsAttr->value, labels, error))
    return ci.attrError(*labelsAttr, error);
  int64_t spatial = labels.lhsSpatial.size();
  auto rankOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getRank();
  };
  if (rankOf(operands[0]) != spatial + 2 ||
      rankOf(operands[1]) != spatial + 2 || type->getRank() != spatial + 2)
    return ci.attrError(*labelsAttr,
                        "the labels name " + std::to_string(spatial + 2) +
                            " dimensions per operand, which does not match "
                            "the operand and result ranks");
  Window window;
  if (const HloAttr *w = inst.findAttribute("window")) {
    if (!readWindow(w->value, window, error))
      return ci.attrError(*w, error);
    if (window.reversed)
      return ci.unsupported(inst, "window reversal (rhs_reversal)");
  } else {
    window.size.assign(spatial, 1);
    window.stride.assign(spatial, 1);
    window.padLow.assign(spatial, 0);
    window.padHigh.assign(spatial, 0);
    window.lhsDilate.assign(spatial, 1);
    window.rhsDilate.assign(spatial, 1);
  }
  if ((int64_t)window.size.size() != spatial)
    return ci.emitError(inst) << "convolution: the window has "
                              << window.size.size() << " dimensions but "
                              << "dim_labels name " << spatial;
  int64_t groups = 1;
  if (inst.findAttribute("feature_group_count")) {
    FailureOr<int64_t> g = ci.getInt(inst, "feature_group_count");
    if (failed(g))
      return failure();
    groups = *g;
  }
  if (inst.findAttribute("batch_group_count")) {
    FailureOr<int64_t> g = ci.getInt(inst, "batch_group_count");
    if (failed(g))
      return failure();
    if (*g != 1)
      return ci.unsupported(inst, "batch_group_count > 1");
  }
  SmallVector<int64_t> lhsPerm{labels.lhsBatch}, rhsPerm,
      outOrder{labels.outBatch};
  llvm::append_range(lhsPerm, labels.lhsSpatial);
  lhsPerm.push_back(labels.lhsFeature);
  llvm::append_range(rhsPerm, labels.rhsSpatial);
  rhsPerm.append({labels.rhsInput, labels.rhsOutput});
  llvm::append_range(outOrder, labels.outSpatial);
  outOrder.push_back(labels.outFeature);
  Type element = type->getElementType();
  Value lhs = transposeIfNeeded(
      ci, inst, convertTo(ci, inst, operands[0], element), lhsPerm);
  Value rhs = transposeIfNeeded(
      ci, inst, convertTo(ci, inst, operands[1], element), rhsPerm);
  // The result in canonical order, then back to the HLO layout.
  SmallVector<int64_t> canonicalShape;
  for (int64_t d : outOrder)
    canonicalShape.push_back(type->getDimSize(d));
  SmallVector<int64_t> padding;
  for (int64_t i = 0; i < spatial; ++i)
    padding.append({window.padLow[i], window.padHigh[i]});
  Value conv = ci.create<xla::ConvolutionOp>(
                     inst, type->clone(canonicalShape), {lhs, rhs},
                     {ci.named("strides", ci.i64s(window.stride)),
                      ci.named("padding", ci.i64s(padding)),
                      ci.named("lhs_dilation", ci.i64s(window.lhsDilate)),
                      ci.named("rhs_dilation", ci.i64s(window.rhsDilate)),
                      ci.named("feature_groups",
                               ci.getBuilder().getI64IntegerAttr(groups))})
                   .getResult();
  SmallVector<int64_t> back(outOrder.size());
  for (auto [c, pos] : llvm::enumerate(outOrder))
    back[pos] = c;
  ci.setResult(inst, transposeIfNeeded(ci, inst, conv, back));
  return success();
}

} // namespace

void xspmd::hlo::addDotConvImporters(OpImporterTable &table) {
  table["dot"] = importDot;
  table["convolution"] = importConvolution;
}
