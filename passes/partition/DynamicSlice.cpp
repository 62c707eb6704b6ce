//===- DynamicSlice.cpp - dynamic_slice across split dimensions -----------===//

#include "passes/partition/DynamicSlice.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {
namespace {

/// Dimensions the slice takes only part of while `input` splits them.
SmallVector<int64_t> maskedDims(DynamicSliceOp op, const ShardLayout &input) {
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op.getInput().getType()).getShape();
  SmallVector<int64_t> dims;
  for (auto [d, size] : llvm::enumerate(op.getType().getShape()))
    if (size != in[d] && !input.dimAxes[d].empty())
      dims.push_back(d);
  return dims;
}

} // namespace

std::optional<ShardLayout> maskedSliceLayout(DynamicSliceOp op,
                                             const ShardLayout &input,
                                             const MeshModel &mesh) {
  SmallVector<int64_t> dims = maskedDims(op, input);
  if (dims.empty() || !input.partialAxes.empty() ||
      op.getType().getElementType().isInteger(1))
    return std::nullopt;
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op.getInput().getType()).getShape();
  ShardLayout layout = input;
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    if (size == in[d])
      continue;
    for (int a : layout.dimAxes[d])
      layout.partialAxes.push_back(a);
    layout.dimAxes[d].clear();
    layout.paddedSize[d] = size;
  }
  llvm::sort(layout.partialAxes);
  layout.partialKind = ReductionKind::sum;
  return layout;
}

Value buildMaskedDynamicSlice(LocalBuilder &local, DynamicSliceOp op,
                              Value input, ValueRange offsets,
                              const ShardLayout &inputLayout,
                              const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  auto globalIn = cast<RankedTensorType>(op.getInput().getType());
  auto localIn = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> dims = maskedDims(op, inputLayout);
  int64_t rank = localIn.getRank();
  auto scalar = RankedTensorType::get({}, b.getI32Type());

  // Pad the masked dimensions by the slice size on both sides, so that a
  // window of the slice size at a clamped offset always fits.
  SmallVector<int64_t> pad(rank, 0), zeros(rank, 0);
  SmallVector<int64_t> padded(localIn.getShape());
  for (int64_t d : dims) {
    pad[d] = op.getType().getDimSize(d);
    padded[d] += 2 * pad[d];
  }
  Value extended =
      PadOp::create(b, loc, localIn.clone(padded), input,
                    b.getDenseI64ArrayAttr(pad), b.getDenseI64ArrayAttr(pad),
                    b.getDenseI64ArrayAttr(zeros), b.getF64FloatAttr(0.0));

  SmallVector<int64_t> sizes(op.getType().getShape());
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == globalIn.getDimSize(d))
      sizes[d] = localIn.getDimSize(d); // taken whole: the local block
  RankedTensorType resultType = op.getType().clone(sizes);
  SmallVector<Value> localOffsets;
  Value inside;
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] == localIn.getDimSize(d) && !llvm::is_contained(dims, d)) {
      localOffsets.push_back(local.scalarI32(loc, 0));
      continue;
    }
    // The global offset, clamped as dynamic_slice clamps it.
    Value offset = offsets[d];
    if (cast<RankedTensorType>(offset.getType()).getElementType() !=
        b.getI32Type())
      offset = ConvertOp::create(b, loc, scalar, offset);
    int64_t size = op.getType().getDimSize(d);
    offset = MinOp::create(
        b, loc, MaxOp::create(b, loc, offset, local.scalarI32(loc, 0)),
        local.scalarI32(loc, globalIn.getDimSize(d) - size));
    if (!llvm::is_contained(dims, d)) {
      localOffsets.push_back(offset);
      continue;
    }
    int64_t block = localIn.getDimSize(d);
    Value begin = local.blockOffset(loc, inputLayout, d);
    // Where the window starts in the padded block, clamped into it (a
    // window clamped there lies wholly outside the block: masked below).
    Value start = AddOp::create(b, loc, SubOp::create(b, loc, offset, begin),
                                local.scalarI32(loc, size));
    localOffsets.push_back(MinOp::create(
        b, loc, MaxOp::create(b, loc, start, local.scalarI32(loc, 0)),
        local.scalarI32(loc, block + size)));
    // Keep the positions whose global index lies in this block and in the
    // tensor (not in its padding).
    Value hi = MinOp::create(
        b, loc, AddOp::create(b, loc, begin, local.scalarI32(loc, block)),
        local.scalarI32(loc, globalIn.getDimSize(d)));
    Value mine = local.rangeMask(loc, sizes, d, offset, begin, hi);
    inside = inside ? AndOp::create(b, loc, inside, mine).getResult() : mine;
  }
  Value window =
      DynamicSliceOp::create(b, loc, resultType, extended, localOffsets,
                             b.getDenseI64ArrayAttr(sizes));
  return SelectOp::create(
      b, loc, inside, window,
      local.splat(loc, resultType,
                  cast<TypedAttr>(b.getZeroAttr(resultType.getElementType()))));
}

} // namespace xspmd::partition
