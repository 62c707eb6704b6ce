//===- ImportDotConv.cpp - HLO's dot and convolution ----------------------===//
//
// dot → xla.dot_general (operands converted to the result's element type
// when HLO asks for a wider accumulation); convolution → xla.convolution,
// whose layout is fixed (NHWC input, HWIO kernel, NHWC output): other
// dim_labels get transposes around it, window reversal a reverse of the
// kernel, batch_group_count a regrouping of the input into feature groups,
// and a convolution without spatial dimensions a unit one.
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
  if (!window.rhsReversal.empty() &&
      (int64_t)window.rhsReversal.size() != spatial)
    return ci.emitError(inst)
           << "convolution: rhs_reversal has " << window.rhsReversal.size()
           << " entries for " << spatial << " spatial dimensions";
  int64_t groups = 1, batchGroups = 1;
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
    batchGroups = *g;
  }
  auto lhsType = cast<RankedTensorType>(operands[0].getType());
  auto rhsType = cast<RankedTensorType>(operands[1].getType());
  if (groups < 1 || batchGroups < 1 || (groups > 1 && batchGroups > 1))
    return ci.emitError(inst)
           << "convolution: feature_group_count " << groups
           << " and batch_group_count " << batchGroups
           << ": both must be positive and at most one above 1";
  int64_t batch = lhsType.getDimSize(labels.lhsBatch);
  int64_t outFeatures = rhsType.getDimSize(labels.rhsOutput);
  if (batchGroups > 1 &&
      (batch % batchGroups != 0 || outFeatures % batchGroups != 0))
    return ci.emitError(inst)
           << "convolution: batch_group_count " << batchGroups
           << " must divide the input batch (" << batch
           << ") and the output features (" << outFeatures << ")";

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

  // Window reversal (the backward of a convolution) reverses the kernel's
  // spatial dimensions, which are its leading ones in HWIO order.
  SmallVector<int64_t> reversed;
  for (auto [d, r] : llvm::enumerate(window.rhsReversal))
    if (r != 0)
      reversed.push_back(d);
  if (!reversed.empty())
    rhs = ci.create<xla::ReverseOp>(inst, rhs.getType(), rhs,
                                    {ci.named("dims", ci.i64s(reversed))})
              .getResult();

  // batch_group_count G (a grouped convolution's kernel gradient): output
  // feature group g convolves batch rows [g*N/G, (g+1)*N/G) (XLA's
  // evaluator). Moving the group out of the batch into the features,
  // [N, S.., C] -> [G, N/G, S.., C] -> [N/G, S.., G, C] -> [N/G, S.., G*C],
  // makes it a convolution with G feature groups.
  if (batchGroups > 1) {
    auto canonical = cast<RankedTensorType>(lhs.getType());
    SmallVector<int64_t> split{batchGroups, batch / batchGroups};
    for (int64_t i = 1; i <= spatial + 1; ++i)
      split.push_back(canonical.getDimSize(i));
    Value grouped = ci.create<xla::ReshapeOp>(inst, canonical.clone(split), lhs)
                        .getResult();
    SmallVector<int64_t> perm{1};
    for (int64_t i = 0; i < spatial; ++i)
      perm.push_back(2 + i);
    perm.append({0, spatial + 2});
    Value moved = transposeIfNeeded(ci, inst, grouped, perm);
    SmallVector<int64_t> merged{batch / batchGroups};
    for (int64_t i = 1; i <= spatial; ++i)
      merged.push_back(canonical.getDimSize(i));
    merged.push_back(batchGroups * canonical.getDimSize(spatial + 1));
    lhs = ci.create<xla::ReshapeOp>(inst, canonical.clone(merged), moved)
              .getResult();
    groups = batchGroups;
  }

  // The result in canonical order, then back to the HLO layout.
  SmallVector<int64_t> canonicalShape;
  for (int64_t d : outOrder)
    canonicalShape.push_back(type->getDimSize(d));

  // A convolution without spatial dimensions (`bf_io->bf`) is one over a
  // single unit spatial dimension.
  bool unitSpatial = spatial == 0;
  auto withUnitDim = [&](Value v, int64_t pos) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.insert(shape.begin() + pos, 1);
    return ci.create<xla::ReshapeOp>(inst, t.clone(shape), v).getResult();
  };
  SmallVector<int64_t> convShape = canonicalShape;
  if (unitSpatial) {
    lhs = withUnitDim(lhs, 1);
    rhs = withUnitDim(rhs, 0);
    convShape.insert(convShape.begin() + 1, 1);
    window.size.assign(1, 1);
    window.stride.assign(1, 1);
    window.padLow.assign(1, 0);
    window.padHigh.assign(1, 0);
    window.lhsDilate.assign(1, 1);
    window.rhsDilate.assign(1, 1);
    spatial = 1;
  }
  SmallVector<int64_t> padding;
  for (int64_t i = 0; i < spatial; ++i)
    padding.append({window.padLow[i], window.padHigh[i]});
  Value conv = ci.create<xla::ConvolutionOp>(
                     inst, type->clone(convShape), {lhs, rhs},
                     {ci.named("strides", ci.i64s(window.stride)),
                      ci.named("padding", ci.i64s(padding)),
                      ci.named("lhs_dilation", ci.i64s(window.lhsDilate)),
                      ci.named("rhs_dilation", ci.i64s(window.rhsDilate)),
                      ci.named("feature_groups",
                               ci.getBuilder().getI64IntegerAttr(groups))})
                   .getResult();
  if (unitSpatial)
    conv = ci.create<xla::ReshapeOp>(inst, type->clone(canonicalShape), conv)
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
