//===- ReshardBuilder.cpp - emit the collectives of a reshard plan --------===//

#include "passes/partition/ReshardBuilder.h"

#include "dialects/xla/XlaOps.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

RankedTensorType localType(RankedTensorType globalType,
                           const ShardLayout &layout, const MeshModel &mesh) {
  return globalType.clone(layout.localShape(mesh));
}

static ArrayAttr axisNames(Builder &b, const MeshModel &mesh,
                           ArrayRef<int> axes) {
  SmallVector<Attribute> names;
  for (int a : axes)
    names.push_back(b.getStringAttr(mesh.axisNames[a]));
  return b.getArrayAttr(names);
}

/// Keeps `value` on the devices whose coordinate along `axis` is 0 and puts
/// the reduction's identity elsewhere, so that the reduction over `axis`
/// gives back `value`. Idempotent reductions (min, max, and, or) need no
/// mask.
static Value maskForPartial(OpBuilder &b, Location loc, Value value,
                            ReductionKind kind, const MeshModel &mesh,
                            FlatSymbolRefAttr meshName, int axis) {
  if (kind != ReductionKind::sum && kind != ReductionKind::mul)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  auto scalarI32 = RankedTensorType::get({}, b.getI32Type());
  Value index = AxisIndexOp::create(b, loc, scalarI32, meshName,
                                    b.getStringAttr(mesh.axisNames[axis]));
  Value zero = ConstantOp::create(
      b, loc, DenseElementsAttr::get(scalarI32, b.getI32IntegerAttr(0)));
  Value isFirst = CompareOp::create(b, loc, CompareDirection::eq, index, zero);
  auto predType = type.clone(b.getI1Type());
  Value pred = BroadcastInDimOp::create(b, loc, predType, isFirst,
                                        b.getDenseI64ArrayAttr({}));
  Type elem = type.getElementType();
  TypedAttr identity =
      kind == ReductionKind::sum
          ? b.getZeroAttr(elem)
          : (isa<FloatType>(elem) ? TypedAttr(b.getFloatAttr(elem, 1.0))
                                  : TypedAttr(b.getIntegerAttr(elem, 1)));
  Value fill =
      ConstantOp::create(b, loc, DenseElementsAttr::get(type, identity));
  return SelectOp::create(b, loc, pred, value, fill);
}

Value buildReshard(OpBuilder &b, Location loc, Value local,
                   const ReshardPlan &plan, const MeshModel &mesh,
                   FlatSymbolRefAttr meshName) {
  for (const ReshardStep &step : plan.steps) {
    auto in = cast<RankedTensorType>(local.getType());
    RankedTensorType out = in.clone(step.after.localShape(mesh));
    ArrayAttr axes = axisNames(b, mesh, step.axes);
    switch (step.kind) {
    case ReshardKind::AllReduce:
      local = AllReduceOp::create(b, loc, out, step.before.partialKind, local,
                                  llvm::APFloat(1.0), meshName, axes,
                                  DenseIntElementsAttr(), LinkClassAttr());
      break;
    case ReshardKind::ReduceScatter:
      local =
          ReduceScatterOp::create(b, loc, out, step.before.partialKind, local,
                                  step.dim, llvm::APFloat(1.0), meshName, axes,
                                  DenseIntElementsAttr(), LinkClassAttr());
      break;
    case ReshardKind::AllGather:
      local = AllGatherOp::create(b, loc, out, local, step.dim, meshName, axes,
                                  nullptr, nullptr);
      break;
    case ReshardKind::AllSlice:
      local = AllSliceOp::create(b, loc, out, local, step.dim, meshName, axes,
                                 nullptr, nullptr);
      break;
    case ReshardKind::AllToAll: {
      int64_t count = 1;
      for (int a : step.axes)
        count *= mesh.axisSizes[a];
      local = AllToAllOp::create(b, loc, out, local, step.toDim, step.dim,
                                 count, meshName, axes, DenseIntElementsAttr(),
                                 LinkClassAttr());
      break;
    }
    case ReshardKind::AllToAllPair:
      for (const AllToAllPairPart &part : allToAllPairParts(step)) {
        auto partIn = cast<RankedTensorType>(local.getType());
        SmallVector<int64_t> shape(partIn.getShape());
        int64_t count = mesh.axisSizes[part.axis];
        shape[part.splitDim] /= count;
        shape[part.concatDim] *= count;
        local = AllToAllOp::create(b, loc, partIn.clone(shape), local,
                                   part.splitDim, part.concatDim, count,
                                   meshName, axisNames(b, mesh, {part.axis}),
                                   DenseIntElementsAttr(), LinkClassAttr());
      }
      break;
    case ReshardKind::Permute: {
      SmallVector<int64_t> sources =
          permuteSources(mesh, step.before, step.after);
      DeviceGroups pairs;
      for (auto [target, source] : llvm::enumerate(sources))
        pairs.push_back({source, static_cast<int64_t>(target)});
      local = CollectivePermuteOp::create(
          b, loc, out, local, groupsToAttr(b.getContext(), pairs),
          FlatSymbolRefAttr(), ArrayAttr(), DenseIntElementsAttr(),
          LinkClassAttr());
      break;
    }
    case ReshardKind::Repad: {
      int64_t d = step.dim, from = in.getDimSize(d), to = out.getDimSize(d);
      int64_t rank = in.getRank();
      if (to > from) {
        SmallVector<int64_t> zeros(rank, 0), high(rank, 0);
        high[d] = to - from;
        local = PadOp::create(b, loc, out, local, b.getDenseI64ArrayAttr(zeros),
                              b.getDenseI64ArrayAttr(high),
                              b.getDenseI64ArrayAttr(zeros),
                              b.getF64FloatAttr(0.0));
      } else {
        SmallVector<int64_t> start(rank, 0), ones(rank, 1);
        SmallVector<int64_t> limit(in.getShape());
        limit[d] = to;
        local = SliceOp::create(
            b, loc, out, local, b.getDenseI64ArrayAttr(start),
            b.getDenseI64ArrayAttr(limit), b.getDenseI64ArrayAttr(ones));
      }
      break;
    }
    case ReshardKind::MakePartial:
      local = maskForPartial(b, loc, local, step.after.partialKind, mesh,
                             meshName, step.axes.front());
      break;
    }
  }
  return local;
}

} // namespace xspmd::partition
