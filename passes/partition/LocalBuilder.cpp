//===- LocalBuilder.cpp - helpers that build local-shape IR ---------------===//

#include "passes/partition/LocalBuilder.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

Value LocalBuilder::rangeMask(Location loc, ArrayRef<int64_t> shape,
                              int64_t dim, Value base, Value lo, Value hi) {
  auto indexType = RankedTensorType::get(shape, b.getI32Type());
  auto predType = RankedTensorType::get(shape, b.getI1Type());
  auto spread = [&](Value scalar) -> Value {
    return BroadcastInDimOp::create(b, loc, indexType, scalar,
                                    b.getDenseI64ArrayAttr({}));
  };
  Value position = AddOp::create(b, loc, IotaOp::create(b, loc, indexType, dim),
                                 spread(base));
  return AndOp::create(b, loc,
                       CompareOp::create(b, loc, predType, CompareDirection::ge,
                                         position, spread(lo)),
                       CompareOp::create(b, loc, predType, CompareDirection::lt,
                                         position, spread(hi)));
}

Value LocalBuilder::splat(Location loc, RankedTensorType type,
                          TypedAttr value) {
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
}

Value LocalBuilder::scalarI32(Location loc, int64_t value) {
  return splat(loc, RankedTensorType::get({}, b.getI32Type()),
               b.getI32IntegerAttr(value));
}

Value LocalBuilder::shardIndex(Location loc, const ShardLayout &layout,
                               int64_t dim) {
  auto scalar = RankedTensorType::get({}, b.getI32Type());
  Value index;
  for (int a : layout.dimAxes[dim]) {
    Value coord = AxisIndexOp::create(b, loc, scalar, meshName,
                                      b.getStringAttr(mesh.axisNames[a]));
    if (!index) {
      index = coord;
      continue;
    }
    Value scaled =
        MulOp::create(b, loc, index, scalarI32(loc, mesh.axisSizes[a]));
    index = AddOp::create(b, loc, scaled, coord);
  }
  return index ? index : scalarI32(loc, 0);
}

Value LocalBuilder::blockOffset(Location loc, const ShardLayout &layout,
                                int64_t dim) {
  int64_t blockSize = layout.localShape(mesh)[dim];
  if (layout.dimAxes[dim].empty())
    return scalarI32(loc, 0);
  return MulOp::create(b, loc, shardIndex(loc, layout, dim),
                       scalarI32(loc, blockSize));
}

Value LocalBuilder::maskPaddingWith(
    Location loc, Value local, const ShardLayout &layout,
    ArrayRef<int64_t> globalShape, ArrayRef<int64_t> dims,
    function_ref<Value(RankedTensorType)> fills) {
  auto type = cast<RankedTensorType>(local.getType());
  auto indexType = type.clone(b.getI32Type());
  auto predType = type.clone(b.getI1Type());
  Value inside;
  for (int64_t d : dims) {
    if (layout.paddedSize[d] == globalShape[d])
      continue;
    Value iota = IotaOp::create(b, loc, indexType, d);
    Value offset =
        BroadcastInDimOp::create(b, loc, indexType, blockOffset(loc, layout, d),
                                 b.getDenseI64ArrayAttr({}));
    Value global = AddOp::create(b, loc, iota, offset);
    Value limit = splat(loc, indexType, b.getI32IntegerAttr(globalShape[d]));
    Value pred = CompareOp::create(b, loc, predType, CompareDirection::lt,
                                   global, limit);
    inside = inside ? AndOp::create(b, loc, inside, pred) : pred;
  }
  if (!inside)
    return local;
  return SelectOp::create(b, loc, inside, local, fills(type));
}

Value LocalBuilder::maskPadding(Location loc, Value local,
                                const ShardLayout &layout,
                                ArrayRef<int64_t> globalShape,
                                ArrayRef<int64_t> dims, TypedAttr fill) {
  return maskPaddingWith(
      loc, local, layout, globalShape, dims,
      [&](RankedTensorType type) { return splat(loc, type, fill); });
}

Value LocalBuilder::maskPadding(Location loc, Value local,
                                const ShardLayout &layout,
                                ArrayRef<int64_t> globalShape,
                                ArrayRef<int64_t> dims, Value fill) {
  return maskPaddingWith(
      loc, local, layout, globalShape, dims, [&](RankedTensorType type) {
        return BroadcastInDimOp::create(b, loc, type, fill,
                                        b.getDenseI64ArrayAttr({}))
            .getResult();
      });
}

Value LocalBuilder::sliceDim(Location loc, Value value, int64_t dim,
                             int64_t begin, int64_t count) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> start(type.getRank(), 0), limit(type.getShape()),
      strides(type.getRank(), 1), shape(type.getShape());
  start[dim] = begin;
  limit[dim] = begin + count;
  shape[dim] = count;
  return SliceOp::create(
      b, loc, type.clone(shape), value, b.getDenseI64ArrayAttr(start),
      b.getDenseI64ArrayAttr(limit), b.getDenseI64ArrayAttr(strides));
}

Value LocalBuilder::permuteShards(Location loc, Value value,
                                  const ShardLayout &layout, int64_t dim,
                                  ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  // The group of a dimension's axes orders its members major to minor, as
  // the shard index does.
  SmallVector<Attribute> axisNames;
  for (int a : layout.dimAxes[dim])
    axisNames.push_back(b.getStringAttr(mesh.axisNames[a]));
  SmallVector<int64_t> flat;
  for (auto [source, target] : pairs)
    flat.append({source, target});
  auto pairsType = RankedTensorType::get(
      {static_cast<int64_t>(pairs.size()), 2}, b.getI64Type());
  return CollectivePermuteOp::create(b, loc, value.getType(), value,
                                     DenseIntElementsAttr::get(pairsType, flat),
                                     meshName, b.getArrayAttr(axisNames),
                                     DenseIntElementsAttr(), LinkClassAttr());
}

TypedAttr reductionIdentity(Builder &b, ReductionKind kind, Type elem) {
  if (auto floatType = dyn_cast<FloatType>(elem)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReductionKind::mul:
      return b.getFloatAttr(elem, 1.0);
    case ReductionKind::max:
      return b.getFloatAttr(elem,
                            llvm::APFloat::getInf(sem, /*Negative=*/true));
    case ReductionKind::min:
      return b.getFloatAttr(elem, llvm::APFloat::getInf(sem));
    default:
      return b.getFloatAttr(elem, 0.0);
    }
  }
  unsigned width = elem.getIntOrFloatBitWidth();
  switch (kind) {
  case ReductionKind::mul:
    return b.getIntegerAttr(elem, 1);
  case ReductionKind::max:
    return b.getIntegerAttr(elem, width == 1
                                      ? llvm::APInt(1, 0)
                                      : llvm::APInt::getSignedMinValue(width));
  case ReductionKind::min:
    return b.getIntegerAttr(elem, width == 1
                                      ? llvm::APInt(1, 1)
                                      : llvm::APInt::getSignedMaxValue(width));
  case ReductionKind::and_:
    return b.getIntegerAttr(elem, llvm::APInt::getAllOnes(width));
  default:
    return b.getIntegerAttr(elem, 0);
  }
}

} // namespace xspmd::partition
