//===- ReshapeRelayout.cpp - reshape between contiguous blocks ------------===//

#include "passes/partition/ReshapeRelayout.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {
namespace {

/// The one split dimension of `layout` if its blocks are contiguous ranges
/// of the flattened tensor of `shape`: nothing pending, dimensions before it
/// of size 1, the others whole and unpadded.
std::optional<int64_t> contiguousSplitDim(const ShardLayout &layout,
                                          ArrayRef<int64_t> shape) {
  if (!layout.partialAxes.empty())
    return std::nullopt;
  std::optional<int64_t> split;
  for (int64_t d = 0; d < layout.rank(); ++d) {
    if (layout.dimAxes[d].empty())
      continue;
    if (split)
      return std::nullopt;
    split = d;
  }
  if (!split)
    return std::nullopt;
  for (int64_t d = 0; d < layout.rank(); ++d)
    if (d != *split &&
        (layout.paddedSize[d] != shape[d] || (d < *split && shape[d] != 1)))
      return std::nullopt;
  return split;
}

} // namespace

std::optional<FlatRelayout>
planFlatRelayout(ReshapeOp op, const ShardLayout &in, const ShardLayout &out,
                 const MeshModel &mesh, const ReshardCostModel &costs) {
  auto inType = cast<RankedTensorType>(op.getOperand().getType());
  RankedTensorType outType = op.getType();
  std::optional<int64_t> inDim = contiguousSplitDim(in, inType.getShape());
  std::optional<int64_t> outDim = contiguousSplitDim(out, outType.getShape());
  if (!inDim || !outDim || in.dimAxes[*inDim] != out.dimAxes[*outDim])
    return std::nullopt;
  int64_t shards = in.numShards(mesh, *inDim);
  int64_t inBlock = in.localElements(mesh), outBlock = out.localElements(mesh);
  if (inBlock == 0 || outBlock == 0)
    return std::nullopt;
  FlatRelayout plan;
  plan.window = Window{outBlock, 0, outBlock};
  if (!haloSizes(plan.window, shards, inBlock))
    return std::nullopt;
  plan.flatLayout.dimAxes = {in.dimAxes[*inDim]};
  plan.flatLayout.paddedSize = {shards * inBlock};
  double blockBytes = static_cast<double>(inBlock) *
                      ((inType.getElementTypeBitWidth() + 7) / 8);
  plan.cost =
      haloExchangeCost(plan.window, shards, inBlock, blockBytes,
                       costs.byteCost(mesh.linkOf(in.dimAxes[*inDim])), costs);
  return plan;
}

Value buildFlatRelayout(LocalBuilder &local, ReshapeOp op, Value input,
                        const FlatRelayout &plan, const ShardLayout &out,
                        const MeshModel &mesh) {
  OpBuilder &b = local.getBuilder();
  Location loc = op.getLoc();
  auto inType = cast<RankedTensorType>(input.getType());
  Value flat =
      ReshapeOp::create(b, loc,
                        inType.clone({plan.flatLayout.paddedSize[0] /
                                      plan.flatLayout.numShards(mesh, 0)}),
                        input);
  // Flat positions past the tensor are padding of both layouts.
  Value window = buildWindow(
      local, loc, flat, plan.flatLayout, mesh, 0, op.getType().getNumElements(),
      plan.window, cast<TypedAttr>(b.getZeroAttr(inType.getElementType())));
  return ReshapeOp::create(b, loc, op.getType().clone(out.localShape(mesh)),
                           window);
}

} // namespace xspmd::partition
