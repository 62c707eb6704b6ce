//===- XlaReductionOps.cpp - reductions with a computation ----------------===//
//
// Verifiers of xla.reduce_region, xla.reduce_window and
// xla.select_and_scatter (XlaReductionOps.td), and the recognition of the
// reductions a body computes.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaReductionOps.h"
#include "dialects/xla/XlaCombiner.h"
#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;

namespace xspmd::xla {

namespace {

RankedTensorType scalarOf(Type element) {
  return RankedTensorType::get({}, element);
}

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// Checks that `region` (named `name` in messages) takes `argTypes` and
/// yields `resultTypes`.
LogicalResult verifyComputation(Operation *op, Region &region, StringRef name,
                                TypeRange argTypes, TypeRange resultTypes) {
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError() << name << " takes " << argTypes.size()
                             << " arguments, not " << block.getNumArguments();
  for (auto [i, arg, type] : llvm::enumerate(block.getArguments(), argTypes))
    if (arg.getType() != type)
      return op->emitOpError() << name << " argument " << i << " must be "
                               << type << ", not " << arg.getType();
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValues().size() != resultTypes.size())
    return yield.emitOpError()
           << "of the " << name << " of " << op->getName() << " must yield "
           << resultTypes.size() << " values, not " << yield.getValues().size();
  for (auto [i, value, type] : llvm::enumerate(yield.getValues(), resultTypes))
    if (value.getType() != type)
      return yield.emitOpError()
             << "of the " << name << " of " << op->getName() << ": value " << i
             << " must be " << type << ", not " << value.getType();
  return success();
}

/// The argument types of a body folding `inputs` from accumulators of the
/// same element types: N accumulators, then N elements.
SmallVector<Type> foldArgTypes(ValueRange inputs) {
  SmallVector<Type> types;
  for (int pass = 0; pass < 2; ++pass)
    for (Value input : inputs)
      types.push_back(scalarOf(elementOf(input)));
  return types;
}

SmallVector<Type> foldResultTypes(ValueRange inputs) {
  SmallVector<Type> types;
  for (Value input : inputs)
    types.push_back(scalarOf(elementOf(input)));
  return types;
}

/// N >= 1 inputs of one shape, N inits of their element types, N results of
/// the given shapes and those element types.
LogicalResult verifyFoldOperands(Operation *op, ValueRange inputs,
                                 ValueRange inits, ValueRange results,
                                 ArrayRef<int64_t> resultShape) {
  if (inputs.empty())
    return op->emitOpError("needs at least one input");
  if (inits.size() != inputs.size())
    return op->emitOpError()
           << "has " << inputs.size() << " inputs but " << inits.size()
           << " inits; it needs one per input";
  if (results.size() != inputs.size())
    return op->emitOpError() << "has " << inputs.size() << " inputs but "
                             << results.size() << " results";
  ArrayRef<int64_t> shape = shapeOf(inputs.front());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    if (shapeOf(input) != shape)
      return op->emitOpError()
             << "input " << i << " has type " << input.getType()
             << "; every input must have the shape of input 0, "
             << inputs.front().getType();
    if (elementOf(inits[i]) != elementOf(input))
      return op->emitOpError()
             << "init " << i << " has type " << inits[i].getType()
             << " but input " << i << " has element type " << elementOf(input);
    auto expected = RankedTensorType::get(resultShape, elementOf(input));
    if (results[i].getType() != expected)
      return op->emitOpError() << "result " << i << " must be " << expected
                               << ", not " << results[i].getType();
  }
  return success();
}

/// One entry per dimension, each >= `min`.
LogicalResult verifyPerDim(Operation *op, StringRef name,
                           ArrayRef<int64_t> values, int64_t rank,
                           int64_t min) {
  if (static_cast<int64_t>(values.size()) != rank)
    return op->emitOpError() << name << " has " << values.size()
                             << " entries but the operand has rank " << rank;
  for (auto [d, v] : llvm::enumerate(values))
    if (v < min)
      return op->emitOpError() << name << "[" << d << "] is " << v
                               << "; it must be at least " << min;
  return success();
}

LogicalResult verifyPadding(Operation *op, ArrayRef<int64_t> padding,
                            int64_t rank) {
  if (static_cast<int64_t>(padding.size()) != 2 * rank)
    return op->emitOpError()
           << "padding has " << padding.size() / 2
           << " [lo, hi] pairs but the operand has rank " << rank;
  return success();
}

/// Whether `value` is the identity of `kind`.
bool isIdentityOf(Attribute value, ReductionKind kind) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    const APFloat &x = f.getValue();
    switch (kind) {
    case ReductionKind::sum:
      return x.isZero();
    case ReductionKind::mul:
      return x.isExactlyValue(1.0);
    case ReductionKind::max:
      return x.isInfinity() && x.isNegative();
    case ReductionKind::min:
      return x.isInfinity() && !x.isNegative();
    default:
      return false;
    }
  }
  auto i = dyn_cast<IntegerAttr>(value);
  if (!i)
    return false;
  const APInt &x = i.getValue();
  unsigned width = x.getBitWidth();
  switch (kind) {
  case ReductionKind::sum:
  case ReductionKind::or_:
    return x.isZero();
  case ReductionKind::mul:
    return x.isOne();
  case ReductionKind::and_:
    return x.isAllOnes();
  case ReductionKind::max:
    return width == 1 ? x.isZero() : x.isMinSignedValue();
  case ReductionKind::min:
    return width == 1 ? x.isOne() : x.isMaxSignedValue();
  }
  return false;
}

} // namespace

SmallVector<int64_t>
windowedShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> window,
              ArrayRef<int64_t> strides, ArrayRef<int64_t> baseDilations,
              ArrayRef<int64_t> windowDilations, ArrayRef<int64_t> padding) {
  SmallVector<int64_t> result;
  for (auto [d, size] : llvm::enumerate(shape)) {
    int64_t base = baseDilations.empty() ? 1 : baseDilations[d];
    int64_t dilation = windowDilations.empty() ? 1 : windowDilations[d];
    int64_t dilated = size == 0 ? 0 : (size - 1) * base + 1;
    int64_t padded = padding[2 * d] + dilated + padding[2 * d + 1];
    int64_t extent = (window[d] - 1) * dilation + 1;
    result.push_back(padded < extent ? 0 : (padded - extent) / strides[d] + 1);
  }
  return result;
}

std::optional<ReductionKind> matchReductionBody(Region &body) {
  // One accumulator and one element: the pairwise combiner with N = 1.
  if (body.front().getNumArguments() != 2)
    return std::nullopt;
  return matchPairwiseCombiner(body);
}

bool isIdentityInit(Value init, ReductionKind kind) {
  DenseElementsAttr value;
  if (!matchPattern(init, m_Constant(&value)) || !value.isSplat())
    return false;
  return isIdentityOf(value.getSplatValue<Attribute>(), kind);
}

//===----------------------------------------------------------------------===//
// xla.reduce_region
//===----------------------------------------------------------------------===//

LogicalResult ReduceRegionOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  ArrayRef<int64_t> shape = shapeOf(getInputs().front());
  int64_t rank = shape.size();
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t d : getDims()) {
    if (d < 0 || d >= rank)
      return emitOpError() << "dim " << d << " is out of range for rank "
                           << rank;
    if (!seen.insert(d).second)
      return emitOpError() << "dim " << d << " is listed twice";
  }
  SmallVector<int64_t> resultShape;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!seen.contains(d))
      resultShape.push_back(size);
  return verifyFoldOperands(*this, getInputs(), getInits(), getResults(),
                            resultShape);
}

LogicalResult ReduceRegionOp::verifyRegions() {
  return verifyComputation(*this, getBody(), "body", foldArgTypes(getInputs()),
                           foldResultTypes(getInputs()));
}

std::optional<ReductionKind> ReduceRegionOp::getRecognizedReduction() {
  if (getInputs().size() != 1)
    return std::nullopt;
  std::optional<ReductionKind> kind = matchReductionBody(getBody());
  if (!kind || !isIdentityInit(getInits().front(), *kind))
    return std::nullopt;
  return kind;
}

//===----------------------------------------------------------------------===//
// xla.reduce_window
//===----------------------------------------------------------------------===//

LogicalResult ReduceWindowOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  ArrayRef<int64_t> shape = shapeOf(getInputs().front());
  int64_t rank = shape.size();
  if (failed(verifyPerDim(*this, "window_dimensions", getWindowDimensions(),
                          rank, 1)) ||
      failed(
          verifyPerDim(*this, "window_strides", getWindowStrides(), rank, 1)) ||
      failed(
          verifyPerDim(*this, "base_dilations", getBaseDilations(), rank, 1)) ||
      failed(verifyPerDim(*this, "window_dilations", getWindowDilations(), rank,
                          1)) ||
      failed(verifyPadding(*this, getPadding(), rank)))
    return failure();
  SmallVector<int64_t> resultShape =
      windowedShape(shape, getWindowDimensions(), getWindowStrides(),
                    getBaseDilations(), getWindowDilations(), getPadding());
  return verifyFoldOperands(*this, getInputs(), getInits(), getResults(),
                            resultShape);
}

LogicalResult ReduceWindowOp::verifyRegions() {
  return verifyComputation(*this, getBody(), "body", foldArgTypes(getInputs()),
                           foldResultTypes(getInputs()));
}

//===----------------------------------------------------------------------===//
// xla.select_and_scatter
//===----------------------------------------------------------------------===//

LogicalResult SelectAndScatterOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getOperand());
  int64_t rank = shape.size();
  Type element = elementOf(getOperand());
  if (failed(verifyPerDim(*this, "window_dimensions", getWindowDimensions(),
                          rank, 1)) ||
      failed(
          verifyPerDim(*this, "window_strides", getWindowStrides(), rank, 1)) ||
      failed(verifyPadding(*this, getPadding(), rank)))
    return failure();
  if (elementOf(getInit()) != element)
    return emitOpError() << "init has type " << getInit().getType()
                         << " but the operand's element type is " << element;
  auto expected = RankedTensorType::get(
      windowedShape(shape, getWindowDimensions(), getWindowStrides(), {}, {},
                    getPadding()),
      element);
  if (getSource().getType() != expected)
    return emitOpError() << "source must be " << expected
                         << " (one element per window), not "
                         << getSource().getType();
  return success();
}

LogicalResult SelectAndScatterOp::verifyRegions() {
  Type scalar = scalarOf(elementOf(getOperand()));
  Type pred = scalarOf(IntegerType::get(getContext(), 1));
  if (failed(verifyComputation(*this, getSelect(), "select", {scalar, scalar},
                               {pred})))
    return failure();
  return verifyComputation(*this, getScatter(), "scatter", {scalar, scalar},
                           {scalar});
}

} // namespace xspmd::xla
