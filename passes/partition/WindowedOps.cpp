//===- WindowedOps.cpp - ops whose windows cross shards -------------------===//

#include "passes/partition/WindowedOps.h"
#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

namespace {

/// The splat constant `value` holds, if any.
TypedAttr splatConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return {};
  return dyn_cast<TypedAttr>(attr.getSplatValue<Attribute>());
}

/// The input window a device needs along `dim` of a windowed op whose
/// result block there has `block` elements; nothing when the op cannot
/// window that dimension (interior padding, input dilation, an init that
/// is not a constant).
std::optional<Window> windowOf(Operation *op, int64_t dim, int64_t block) {
  if (auto slice = dyn_cast<SliceOp>(op)) {
    int64_t stride = slice.getStrides()[dim];
    return Window{block * stride, slice.getStart()[dim],
                  (block - 1) * stride + 1};
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    if (pad.getInterior()[dim] != 0)
      return std::nullopt;
    return Window{block, -pad.getLow()[dim], block};
  }
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    int64_t s = dim - 1; // spatial index
    if (conv.getLhsDilation()[s] != 1)
      return std::nullopt;
    int64_t stride = conv.getStrides()[s];
    int64_t kernel = shapeOf(conv.getKernel())[s];
    return Window{block * stride, -conv.getPadding()[2 * s],
                  (block - 1) * stride +
                      (kernel - 1) * conv.getRhsDilation()[s] + 1};
  }
  if (auto reduce = dyn_cast<ReduceWindowOp>(op)) {
    if (reduce.getBaseDilations()[dim] != 1 ||
        !llvm::all_of(reduce.getInits(),
                      [](Value init) { return splatConstant(init); }))
      return std::nullopt;
    int64_t stride = reduce.getWindowStrides()[dim];
    return Window{block * stride, -reduce.getPadding()[2 * dim],
                  (block - 1) * stride +
                      (reduce.getWindowDimensions()[dim] - 1) *
                          reduce.getWindowDilations()[dim] +
                      1};
  }
  return std::nullopt;
}

/// A select_and_scatter's windows along `dim` tile the operand exactly
/// (stride == window, no padding, no trailing elements), and its operand
/// and source blocks hold the same windows.
bool windowsStayInShards(SelectAndScatterOp op, int64_t dim,
                         const FactorAssignment &assignment,
                         const MeshModel &mesh) {
  int64_t window = op.getWindowDimensions()[dim];
  int64_t operandSize = shapeOf(op.getOperand())[dim];
  int64_t sourceSize = shapeOf(op.getSource())[dim];
  if (op.getWindowStrides()[dim] != window || op.getPadding()[2 * dim] != 0 ||
      op.getPadding()[2 * dim + 1] != 0 || operandSize != sourceSize * window)
    return false;
  int64_t operandBlock = assignment.operands[0].localShape(mesh)[dim];
  int64_t sourceBlock = assignment.operands[1].localShape(mesh)[dim];
  return operandBlock == sourceBlock * window;
}

} // namespace

bool isWindowedOp(Operation *op) {
  return isa<SliceOp, PadOp, ConvolutionOp, ReduceWindowOp, SelectAndScatterOp>(
      op);
}

SmallVector<unsigned> windowedOperands(Operation *op) {
  if (auto reduce = dyn_cast<ReduceWindowOp>(op))
    return llvm::to_vector(llvm::seq<unsigned>(0, reduce.getInputs().size()));
  if (isa<SelectAndScatterOp>(op))
    return {};
  return {0};
}

SplitWindow planSplitWindow(Operation *op, int64_t dim,
                            const FactorAssignment &assignment,
                            const MeshModel &mesh) {
  if (auto scatter = dyn_cast<SelectAndScatterOp>(op)) {
    if (windowsStayInShards(scatter, dim, assignment, mesh))
      return {SplitWindow::local};
    return {SplitWindow::gather, {}, "its windows cross shard boundaries"};
  }
  int64_t inBlock = assignment.operands[0].localShape(mesh)[dim];
  int64_t outBlock = assignment.results[0].localShape(mesh)[dim];
  std::optional<Window> window = windowOf(op, dim, outBlock);
  if (!window)
    return {SplitWindow::gather,
            {},
            "interior padding, input dilation or a non-constant init has no "
            "halo"};
  if (!haloSizes(*window, assignment.operands[0].numShards(mesh, dim), inBlock))
    return {SplitWindow::gather,
            {},
            "the window reaches past the neighbouring blocks"};
  return {SplitWindow::halo, *window};
}

TypedAttr windowFill(Builder &b, Operation *op, unsigned operand) {
  Type elem = cast<RankedTensorType>(op->getOperand(operand).getType())
                  .getElementType();
  if (auto pad = dyn_cast<PadOp>(op)) {
    double value = pad.getValue().convertToDouble();
    return isa<FloatType>(elem)
               ? TypedAttr(b.getFloatAttr(elem, value))
               : TypedAttr(b.getIntegerAttr(elem, static_cast<int64_t>(value)));
  }
  if (auto reduce = dyn_cast<ReduceWindowOp>(op))
    if (TypedAttr init = splatConstant(reduce.getInits()[operand]))
      return init;
  return cast<TypedAttr>(b.getZeroAttr(elem));
}

void clearWindowedPadding(Operation *localOp, ArrayRef<int64_t> windowedDims) {
  if (windowedDims.empty())
    return;
  if (auto conv = dyn_cast<ConvolutionOp>(localOp)) {
    SmallVector<int64_t> padding(conv.getPadding());
    for (int64_t d : windowedDims)
      padding[2 * (d - 1)] = padding[2 * (d - 1) + 1] = 0;
    conv.setPadding(padding);
  }
  if (auto reduce = dyn_cast<ReduceWindowOp>(localOp)) {
    SmallVector<int64_t> padding(reduce.getPadding());
    for (int64_t d : windowedDims)
      padding[2 * d] = padding[2 * d + 1] = 0;
    reduce.setPadding(padding);
  }
}

} // namespace xspmd::partition
