//===- CollectiveUtils.cpp - helpers of --xla-optimize-collectives --------===//

#include "passes/optimize/CollectiveUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {

Participants Participants::of(Operation *op) {
  auto c = cast<CollectiveOpInterface>(op);
  return {c.getMeshAttr(), c.getAxesAttr(), c.getGroupsAttr(), c.getLinkAttr()};
}

Participants Participants::onAxes(MLIRContext *ctx, FlatSymbolRefAttr mesh,
                                  ArrayRef<StringRef> axes,
                                  LinkClassAttr link) {
  Builder b(ctx);
  SmallVector<Attribute> names;
  for (StringRef a : axes)
    names.push_back(b.getStringAttr(a));
  return {mesh, b.getArrayAttr(names), nullptr, link};
}

Participants Participants::onGroups(MLIRContext *ctx,
                                    const DeviceGroups &groups,
                                    LinkClass link) {
  return {nullptr, nullptr, groupsToAttr(ctx, groups),
          LinkClassAttr::get(ctx, link)};
}

SmallVector<StringRef> Participants::axisNames() const {
  SmallVector<StringRef> names;
  if (axes)
    for (StringRef a : axes.getAsValueRange<StringAttr>())
      names.push_back(a);
  return names;
}

bool Participants::sameGroupsAs(const Participants &other) const {
  return mesh == other.mesh && axes == other.axes && groups == other.groups;
}

MeshAttr meshOf(Operation *op, FlatSymbolRefAttr name) {
  MeshOp mesh = lookupMesh(op, name);
  return mesh ? mesh.getMesh() : MeshAttr();
}

std::optional<int64_t> groupSize(Operation *op) {
  Participants p = Participants::of(op);
  if (p.groups)
    return cast<RankedTensorType>(p.groups.getType()).getDimSize(1);
  if (p.axes) {
    MeshAttr mesh = meshOf(op, p.mesh);
    if (!mesh)
      return std::nullopt;
    int64_t size = 1;
    for (StringRef a : p.axisNames())
      size *= mesh.getAxisSize(a);
    return size;
  }
  if (MeshOp any = findFirstMesh(op))
    return any.getMesh().getNumDevices();
  return std::nullopt;
}

std::optional<DeviceGroups> resolveGroups(Operation *op) {
  Participants p = Participants::of(op);
  MeshAttr mesh;
  int64_t numDevices = 0;
  if (p.axes) {
    mesh = meshOf(op, p.mesh);
    if (!mesh)
      return std::nullopt;
  } else if (!p.groups) {
    MeshOp any = findFirstMesh(op);
    if (!any)
      return std::nullopt;
    numDevices = any.getMesh().getNumDevices();
  }
  return resolveParticipantGroups(cast<CollectiveOpInterface>(op), mesh,
                                  numDevices);
}

bool contains(ArrayRef<StringRef> list, StringRef name) {
  return llvm::is_contained(list, name);
}

bool disjoint(ArrayRef<StringRef> a, ArrayRef<StringRef> b) {
  return llvm::none_of(a, [&](StringRef x) { return contains(b, x); });
}

bool isPrefix(ArrayRef<StringRef> prefix, ArrayRef<StringRef> list) {
  return prefix.size() <= list.size() &&
         llvm::equal(prefix, list.take_front(prefix.size()));
}

bool isSuffix(ArrayRef<StringRef> suffix, ArrayRef<StringRef> list) {
  return suffix.size() <= list.size() &&
         llvm::equal(suffix, list.take_back(suffix.size()));
}

SmallVector<StringRef> without(ArrayRef<StringRef> a, ArrayRef<StringRef> b) {
  SmallVector<StringRef> rest;
  for (StringRef x : a)
    if (!contains(b, x))
      rest.push_back(x);
  return rest;
}

LinkClassAttr linkForAxes(MeshAttr mesh, ArrayRef<StringRef> axes,
                          LinkClassAttr original) {
  if (!original || !mesh)
    return original;
  LinkClass link = mesh.getLinkClassOfAxes(axes);
  return LinkClassAttr::get(original.getContext(), link);
}

LinkClassAttr mergeLinks(LinkClassAttr a, LinkClassAttr b) {
  if (!a || !b)
    return {};
  if (a == b)
    return a;
  return LinkClassAttr::get(a.getContext(), LinkClass::mixed);
}

int64_t numBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * std::max<int64_t>(1, bits / 8);
}

Value createAllReduce(OpBuilder &b, Location loc, ReductionKind kind,
                      Value input, APFloat scale, const Participants &p) {
  return AllReduceOp::create(b, loc, input.getType(), kind, input, scale,
                             p.mesh, p.axes, p.groups, p.link);
}

Value createReduceScatter(OpBuilder &b, Location loc, RankedTensorType type,
                          ReductionKind kind, Value input, int64_t dim,
                          APFloat scale, const Participants &p) {
  return ReduceScatterOp::create(b, loc, type, kind, input, dim, scale, p.mesh,
                                 p.axes, p.groups, p.link);
}

Value createAllGather(OpBuilder &b, Location loc, RankedTensorType type,
                      Value input, int64_t dim, const Participants &p) {
  return AllGatherOp::create(b, loc, type, input, dim, p.mesh, p.axes, p.groups,
                             p.link);
}

Value createAllSlice(OpBuilder &b, Location loc, RankedTensorType type,
                     Value input, int64_t dim, const Participants &p) {
  return AllSliceOp::create(b, loc, type, input, dim, p.mesh, p.axes, p.groups,
                            p.link);
}

Value createReshape(OpBuilder &b, Location loc, Value input,
                    RankedTensorType type) {
  if (input.getType() == type)
    return input;
  return ReshapeOp::create(b, loc, type, input);
}

RankedTensorType scaleDim(RankedTensorType type, int64_t dim, int64_t multiply,
                          int64_t divide) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = shape[dim] * multiply / divide;
  return type.clone(shape);
}

} // namespace xspmd::optimize
