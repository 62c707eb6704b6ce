//===- ImportBatchNorm.cpp - HLO's batch-norm opcodes ---------------------===//
//
// batch-norm-training, batch-norm-inference and batch-norm-grad are expanded
// on import into reductions and elementwise xla ops, with the formulas of
// XLA's operation semantics: statistics over every dimension but
// `feature_index`, the biased variance mean((x - mean)^2), and
//
//   y          = (x - mean) * rsqrt(var + eps) * scale + offset
//   grad_x     = scale * rsqrt(var + eps) *
//                (dy - mean(dy) - (x - mean) * mean(dy * (x - mean)) /
//                 (var + eps))
//   grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps)
//   grad_offset = sum(dy)
//
// Propagation, partitioning (a sharded batch makes the statistics partial
// sums, all-reduced), simulation and cost then need nothing of their own.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

/// Builds the expansion's ops at one instruction's location.
class NormBuilder {
public:
  NormBuilder(ComputationImporter &ci, const Instruction &inst,
              RankedTensorType operandType, int64_t feature)
      : ci(ci), inst(inst), full(operandType), feature(feature) {
    for (int64_t d = 0; d < full.getRank(); ++d)
      if (d != feature)
        reduced.push_back(d);
    perFeature = RankedTensorType::get({full.getDimSize(feature)},
                                       full.getElementType());
  }

  /// A per-feature vector broadcast along the feature dimension.
  Value expand(Value v) {
    return ci
        .create<xla::BroadcastInDimOp>(inst, full, v,
                                       {ci.named("dims", ci.i64s({feature}))})
        .getResult();
  }
  Value reduce(xla::ReduceKind kind, Value v) {
    return ci
        .create<xla::ReduceOp>(
            inst, perFeature, v,
            {ci.named("kind", xla::ReduceKindAttr::get(ci.getContext(), kind)),
             ci.named("dims", ci.i64s(reduced))})
        .getResult();
  }
  /// The sum over the statistics' dimensions divided by their element
  /// count (what HLO export writes for a mean, so modules round-trip).
  Value mean(Value v) {
    return binary<xla::DivOp>(sum(v), splat(perFeature, getCount()));
  }
  double getCount() const {
    return static_cast<double>(full.getNumElements() /
                               std::max<int64_t>(1, full.getDimSize(feature)));
  }
  Value sum(Value v) { return reduce(xla::ReduceKind::sum, v); }
  Value splat(RankedTensorType type, double value) {
    auto attr = DenseElementsAttr::get(
        type, ci.getBuilder().getFloatAttr(type.getElementType(), value));
    return ci.create<xla::ConstantOp>(inst, type, {},
                                      {ci.named("value", attr)});
  }
  template <typename OpTy>
  Value binary(Value a, Value b) {
    return ci.create<OpTy>(inst, a.getType(), ValueRange{a, b}).getResult();
  }
  template <typename OpTy>
  Value unary(Value a) {
    return ci.create<OpTy>(inst, a.getType(), ValueRange{a}).getResult();
  }
  /// rsqrt(var + eps), per feature.
  Value invStdDev(Value variance, double epsilon) {
    return unary<xla::RsqrtOp>(
        binary<xla::AddOp>(variance, splat(perFeature, epsilon)));
  }

  RankedTensorType getPerFeatureType() const { return perFeature; }

private:
  ComputationImporter &ci;
  const Instruction &inst;
  RankedTensorType full, perFeature;
  int64_t feature;
  SmallVector<int64_t> reduced;
};

/// Reads `epsilon` and `feature_index` and checks the operands: operand 0 is
/// a float array with the feature dimension, the others listed in
/// `perFeature` are vectors of its size, those in `fullSize` its shape.
LogicalResult readBatchNorm(ComputationImporter &ci, const Instruction &inst,
                            unsigned numOperands,
                            ArrayRef<unsigned> perFeatureOperands,
                            SmallVectorImpl<Value> &operands, double &epsilon,
                            int64_t &feature) {
  if (failed(ci.expectOperands(inst, numOperands)) ||
      failed(ci.getOperands(inst, operands)))
    return failure();
  const HloAttr *eps = ci.getAttr(inst, "epsilon", /*required=*/true);
  FailureOr<int64_t> index = ci.getInt(inst, "feature_index");
  if (!eps || failed(index))
    return failure();
  if (StringRef(eps->value).trim().getAsDouble(epsilon))
    return ci.attrError(*eps, "expected a number");
  feature = *index;
  auto type = cast<RankedTensorType>(operands[0].getType());
  if (!isa<FloatType>(type.getElementType()))
    return ci.emitError(inst) << inst.opcode << ": the operand must be a float "
                              << "array, not " << type;
  if (feature < 0 || feature >= type.getRank())
    return ci.emitError(inst) << inst.opcode << ": feature_index " << feature
                              << " is not a dimension of the rank-"
                              << type.getRank() << " operand";
  auto vector =
      RankedTensorType::get({type.getDimSize(feature)}, type.getElementType());
  for (unsigned i = 1; i < numOperands; ++i) {
    bool isVector = llvm::is_contained(perFeatureOperands, i);
    Type expected = isVector ? Type(vector) : Type(type);
    if (operands[i].getType() != expected)
      return ci.emitError(inst)
             << inst.opcode << ": operand " << i << " has type "
             << operands[i].getType() << ", expected " << expected;
  }
  return success();
}

/// The result leaves must be exactly `expected` (HLO writes them).
LogicalResult checkResultLeaves(ComputationImporter &ci,
                                const Instruction &inst,
                                ArrayRef<Type> expected) {
  SmallVector<Type> leaves;
  if (failed(ci.getModule().getLeafTypes(inst.shape, inst.loc, leaves)))
    return failure();
  if (leaves != expected) {
    auto diag = ci.emitError(inst)
                << inst.opcode << ": the result shape does not match the "
                << "operands (expected";
    for (Type t : expected)
      diag << " " << t;
    return diag << ")";
  }
  return success();
}

LogicalResult importBatchNormTraining(ComputationImporter &ci,
                                      const Instruction &inst) {
  SmallVector<Value> in;
  double epsilon;
  int64_t feature;
  if (failed(readBatchNorm(ci, inst, 3, {1, 2}, in, epsilon, feature)))
    return failure();
  auto type = cast<RankedTensorType>(in[0].getType());
  NormBuilder b(ci, inst, type, feature);
  if (failed(checkResultLeaves(
          ci, inst, {type, b.getPerFeatureType(), b.getPerFeatureType()})))
    return failure();
  Value mean = b.mean(in[0]);
  Value centered = b.binary<xla::SubOp>(in[0], b.expand(mean));
  Value variance = b.mean(b.binary<xla::MulOp>(centered, centered));
  Value factor = b.binary<xla::MulOp>(b.invStdDev(variance, epsilon), in[1]);
  Value out = b.binary<xla::AddOp>(
      b.binary<xla::MulOp>(centered, b.expand(factor)), b.expand(in[2]));
  ci.setResult(inst, {out, mean, variance});
  return success();
}

LogicalResult importBatchNormInference(ComputationImporter &ci,
                                       const Instruction &inst) {
  SmallVector<Value> in;
  double epsilon;
  int64_t feature;
  if (failed(readBatchNorm(ci, inst, 5, {1, 2, 3, 4}, in, epsilon, feature)))
    return failure();
  auto type = cast<RankedTensorType>(in[0].getType());
  NormBuilder b(ci, inst, type, feature);
  if (failed(checkResultLeaves(ci, inst, {type})))
    return failure();
  Value factor = b.binary<xla::MulOp>(b.invStdDev(in[4], epsilon), in[1]);
  Value centered = b.binary<xla::SubOp>(in[0], b.expand(in[3]));
  Value out = b.binary<xla::AddOp>(
      b.binary<xla::MulOp>(centered, b.expand(factor)), b.expand(in[2]));
  ci.setResult(inst, {out});
  return success();
}

LogicalResult importBatchNormGrad(ComputationImporter &ci,
                                  const Instruction &inst) {
  // (operand, scale, mean, variance, grad_output).
  SmallVector<Value> in;
  double epsilon;
  int64_t feature;
  if (failed(readBatchNorm(ci, inst, 5, {1, 2, 3}, in, epsilon, feature)))
    return failure();
  auto type = cast<RankedTensorType>(in[0].getType());
  NormBuilder b(ci, inst, type, feature);
  if (failed(checkResultLeaves(
          ci, inst, {type, b.getPerFeatureType(), b.getPerFeatureType()})))
    return failure();
  Value dy = in[4];
  Value centered = b.binary<xla::SubOp>(in[0], b.expand(in[2]));
  Value inv = b.invStdDev(in[3], epsilon);
  Value gradOffset = b.sum(dy);
  Value dyCentered = b.sum(b.binary<xla::MulOp>(dy, centered));
  Value gradScale = b.binary<xla::MulOp>(dyCentered, inv);
  // mean(dy * (x - mean)) / (var + eps) = mean(dy * (x - mean)) * inv^2.
  Value count = b.splat(b.getPerFeatureType(), b.getCount());
  Value meanDy = b.binary<xla::DivOp>(gradOffset, count);
  Value projection = b.binary<xla::MulOp>(
      b.binary<xla::DivOp>(dyCentered, count), b.binary<xla::MulOp>(inv, inv));
  Value inner = b.binary<xla::SubOp>(
      b.binary<xla::SubOp>(dy, b.expand(meanDy)),
      b.binary<xla::MulOp>(centered, b.expand(projection)));
  Value gradOperand =
      b.binary<xla::MulOp>(inner, b.expand(b.binary<xla::MulOp>(in[1], inv)));
  ci.setResult(inst, {gradOperand, gradScale, gradOffset});
  return success();
}

} // namespace

void xspmd::hlo::addBatchNormImporters(OpImporterTable &table) {
  table["batch-norm-training"] = importBatchNormTraining;
  table["batch-norm-inference"] = importBatchNormInference;
  table["batch-norm-grad"] = importBatchNormGrad;
}
