//===- DynamicUpdate.cpp - dynamic_update_slice on split blocks -----------===//
//
// With the input split along a dimension the update only partly covers, the
// update is replicated along it (the op's sharding rule) and every device
// computes, for each of its positions g, whether g lies in [offset, offset +
// size) and which update element lands there:
//
//   window = dynamic_slice(pad(update, L, L), blockStart - offset + L, L)
//   result = select(offset <= g < offset + size, window, input)
//
// where L is the local block size. Padding by L on both sides keeps the
// window inside the padded update for every block that meets the update;
// blocks that do not meet it see the mask all false. Dimensions the update
// covers whole are split like the input and need nothing.
//
//===----------------------------------------------------------------------===//

#include "passes/partition/DynamicUpdate.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

Value buildLocalDynamicUpdateSlice(LocalBuilder &local, DynamicUpdateSliceOp op,
                                   Value input, Value update,
                                   ValueRange offsets,
                                   const ShardLayout &inputLayout,
                                   const ShardLayout &updateLayout,
                                   const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  auto inType = cast<RankedTensorType>(input.getType());
  auto globalIn = op.getType();
  auto globalUpd = cast<RankedTensorType>(op.getUpdate().getType());
  int64_t rank = inType.getRank();
  auto scalarI32 = RankedTensorType::get({}, b.getI32Type());

  SmallVector<int64_t> low(rank, 0);
  SmallVector<Value> starts;
  Value inside;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = globalUpd.getDimSize(d), extent = globalIn.getDimSize(d);
    if (size == extent) {
      // Whole dimension: the offset clamps to 0 and the update's block
      // lines up with the input's.
      starts.push_back(local.scalarI32(loc, 0));
      continue;
    }
    assert(updateLayout.dimAxes[d].empty() &&
           "a partly covered dimension of the update is replicated");
    int64_t block = inType.getDimSize(d);
    low[d] = block;
    Value offset = offsets[d];
    if (!cast<RankedTensorType>(offset.getType())
             .getElementType()
             .isInteger(32))
      offset = ConvertOp::create(b, loc, scalarI32, offset);
    // Clamp as the unpartitioned op does: into [0, extent - size].
    offset = MinOp::create(
        b, loc, MaxOp::create(b, loc, offset, local.scalarI32(loc, 0)),
        local.scalarI32(loc, extent - size));
    Value blockStart = local.blockOffset(loc, inputLayout, d);
    starts.push_back(AddOp::create(b, loc,
                                   SubOp::create(b, loc, blockStart, offset),
                                   local.scalarI32(loc, block)));
    // Positions of this block inside [offset, offset + size).
    Value end = AddOp::create(b, loc, offset, local.scalarI32(loc, size));
    Value in =
        local.rangeMask(loc, inType.getShape(), d, blockStart, offset, end);
    inside = inside ? AndOp::create(b, loc, inside, in) : in;
  }
  if (!inside) // the update covers the whole input
    return update;
  auto updType = cast<RankedTensorType>(update.getType());
  SmallVector<int64_t> paddedShape(updType.getShape());
  for (int64_t d = 0; d < rank; ++d)
    paddedShape[d] += 2 * low[d];
  Value padded =
      PadOp::create(b, loc, updType.clone(paddedShape), update,
                    b.getDenseI64ArrayAttr(low), b.getDenseI64ArrayAttr(low),
                    b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 0)),
                    b.getF64FloatAttr(0.0));
  Value window =
      DynamicSliceOp::create(b, loc, inType, padded, starts,
                             b.getDenseI64ArrayAttr(inType.getShape()));
  return SelectOp::create(b, loc, inside, window, input);
}

} // namespace xspmd::partition
