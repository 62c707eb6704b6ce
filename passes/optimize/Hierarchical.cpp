//===- Hierarchical.cpp - ICI-then-DCN decomposition of collectives -------===//
//
// A collective whose groups span several slices of a hybrid mesh (d slices,
// i members of each group per slice, i > 1 and d > 1) runs in stages so
// that only 1/i of the data crosses the data-centre network:
//
// - all_reduce: reduce_scatter over ICI, all_reduce over DCN of the 1/i
//   block, all_gather over ICI (on a dim divisible by i, else flattened);
// - reduce_scatter: reduce_scatter over ICI, then over DCN;
// - all_gather: all_gather over DCN, then over ICI.
//
// The stages name their groups by mesh axes when the op's axes are each
// pure ICI or pure DCN, by explicit groups otherwise (a mixed axis, explicit
// groups, every device), and carry `link = ici` / `link = dcn`.
//
//===----------------------------------------------------------------------===//

#include "passes/optimize/CollectiveUtils.h"
#include "passes/optimize/HierarchicalGroups.h"
#include "passes/optimize/Rewrites.h"

#include "dialects/xla/XlaMesh.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {
namespace {

int64_t sliceSizeOfMesh(MeshAttr mesh) {
  int64_t size = 1;
  for (int64_t i = 0; i < mesh.getRank(); ++i)
    size *= mesh.getIciSize(i);
  return size;
}

/// Devices per slice for `op`: from its mesh, or, for groups or every
/// device, from the module's hybrid meshes when they agree.
std::optional<int64_t> sliceSizeOf(Operation *op) {
  Participants p = Participants::of(op);
  if (p.isMeshAxes()) {
    MeshAttr mesh = meshOf(op, p.mesh);
    if (!mesh || !mesh.isHybrid())
      return std::nullopt;
    return sliceSizeOfMesh(mesh);
  }
  std::optional<int64_t> size;
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return std::nullopt;
  for (MeshOp meshOp : module.getOps<MeshOp>()) {
    MeshAttr mesh = meshOp.getMesh();
    if (!mesh.isHybrid())
      continue;
    if (size && *size != sliceSizeOfMesh(mesh))
      return std::nullopt;
    size = sliceSizeOfMesh(mesh);
  }
  return size;
}

struct Plan {
  LinkSplit split;
  Participants ici, dcn;
};

/// Mesh-axes participants for `subgroups` when the axes of `mesh` of link
/// class `link` among `axes` name exactly them.
std::optional<Participants> asMeshAxes(Operation *op, const Participants &p,
                                       LinkClass link,
                                       const DeviceGroups &subgroups) {
  MeshAttr mesh = meshOf(op, p.mesh);
  SmallVector<StringRef> names;
  SmallVector<int64_t> indices, shape;
  for (MeshAxisAttr axis : mesh.getAxes())
    shape.push_back(axis.getSize());
  for (StringRef name : p.axisNames()) {
    int64_t i = mesh.getAxisIndex(name);
    if (mesh.getAxisSize(name) == 1)
      continue;
    if (mesh.getLinkClass(i) == LinkClass::mixed)
      return std::nullopt;
    if (mesh.getLinkClass(i) == link) {
      names.push_back(name);
      indices.push_back(i);
    }
  }
  if (!sameGroupSets(meshAxisGroups(shape, mesh.getDeviceArray(), indices),
                     subgroups))
    return std::nullopt;
  return Participants::onAxes(op->getContext(), p.mesh, names,
                              LinkClassAttr::get(op->getContext(), link));
}

std::optional<Plan> planFor(Operation *op) {
  std::optional<int64_t> sliceSize = sliceSizeOf(op);
  if (!sliceSize)
    return std::nullopt;
  std::optional<DeviceGroups> groups = resolveGroups(op);
  if (!groups)
    return std::nullopt;
  std::optional<LinkSplit> split = splitByLinks(*groups, *sliceSize);
  if (!split || split->iciSize < 2 || split->dcnSize < 2)
    return std::nullopt;
  MLIRContext *ctx = op->getContext();
  Plan plan{*split, Participants::onGroups(ctx, split->ici, LinkClass::ici),
            Participants::onGroups(ctx, split->dcn, LinkClass::dcn)};
  Participants p = Participants::of(op);
  if (p.isMeshAxes()) {
    if (auto ici = asMeshAxes(op, p, LinkClass::ici, split->ici))
      plan.ici = *ici;
    if (auto dcn = asMeshAxes(op, p, LinkClass::dcn, split->dcn))
      plan.dcn = *dcn;
  }
  return plan;
}

/// `type` with dimension `dim` replaced by dimensions `parts`.
RankedTensorType expandDim(RankedTensorType type, int64_t dim,
                           ArrayRef<int64_t> parts) {
  SmallVector<int64_t> shape(type.getShape().take_front(dim));
  llvm::append_range(shape, parts);
  llvm::append_range(shape, type.getShape().drop_front(dim + 1));
  return type.clone(shape);
}

bool decomposeAllReduce(OpBuilder &b, AllReduceOp ar) {
  std::optional<Plan> plan = planFor(ar);
  if (!plan)
    return false;
  int64_t i = plan->split.iciSize;
  RankedTensorType type = ar.getType();
  Location loc = ar.getLoc();
  b.setInsertionPoint(ar);
  Value x = ar.getInput();
  // The outermost dim the ICI members can split evenly, else the flattened
  // tensor.
  int64_t dim = 0;
  while (dim < type.getRank() && type.getDimSize(dim) % i != 0)
    ++dim;
  RankedTensorType work = type;
  int64_t padding = 0;
  if (dim == type.getRank()) {
    // Flatten, padding the end so that the ICI members split it evenly
    // (e.g. combined gradients plus a scalar loss); the padding is reduced
    // along with the data and sliced off after the gather.
    dim = 0;
    int64_t n = type.getNumElements();
    padding = (i - n % i) % i;
    work = type.clone({n});
    x = createReshape(b, loc, x, work);
    if (padding) {
      work = type.clone({n + padding});
      x = PadOp::create(b, loc, work, x, b.getDenseI64ArrayAttr({0}),
                        b.getDenseI64ArrayAttr({padding}),
                        b.getDenseI64ArrayAttr({0}), b.getF64FloatAttr(0.0));
    }
  }
  APFloat one(ar.getScale().getSemantics(), 1);
  Value part = createReduceScatter(b, loc, scaleDim(work, dim, 1, i),
                                   ar.getKind(), x, dim, one, plan->ici);
  part = createAllReduce(b, loc, ar.getKind(), part, ar.getScale(), plan->dcn);
  Value full = createAllGather(b, loc, work, part, dim, plan->ici);
  if (padding) {
    int64_t n = type.getNumElements();
    full = SliceOp::create(b, loc, type.clone({n}), full,
                           b.getDenseI64ArrayAttr({0}),
                           b.getDenseI64ArrayAttr({n}),
                           b.getDenseI64ArrayAttr({1}));
  }
  ar.replaceAllUsesWith(createReshape(b, loc, full, type));
  ar.erase();
  return true;
}

bool decomposeReduceScatter(OpBuilder &b, ReduceScatterOp rs) {
  std::optional<Plan> plan = planFor(rs);
  if (!plan || plan->split.layout == GroupLayout::Interleaved)
    return false;
  int64_t i = plan->split.iciSize, d = plan->split.dcnSize;
  bool dcnMajor = plan->split.layout == GroupLayout::DcnMajor;
  int64_t r = rs.getDim();
  auto in = cast<RankedTensorType>(rs.getInput().getType());
  int64_t block = in.getDimSize(r) / (i * d);
  // Position a*i + b (or b*d + a) owns block (a, b) of the split dim seen
  // as [d, i, block] (or [i, d, block]).
  SmallVector<int64_t> parts = {d, i, block};
  if (!dcnMajor)
    std::swap(parts[0], parts[1]);
  RankedTensorType expanded = expandDim(in, r, parts);
  int64_t iciDim = dcnMajor ? r + 1 : r, dcnDim = dcnMajor ? r : r + 1;
  Location loc = rs.getLoc();
  b.setInsertionPoint(rs);
  Value x = createReshape(b, loc, rs.getInput(), expanded);
  APFloat one(rs.getScale().getSemantics(), 1);
  RankedTensorType afterIci = scaleDim(expanded, iciDim, 1, i);
  x = createReduceScatter(b, loc, afterIci, rs.getKind(), x, iciDim, one,
                          plan->ici);
  x = createReduceScatter(b, loc, scaleDim(afterIci, dcnDim, 1, d),
                          rs.getKind(), x, dcnDim, rs.getScale(), plan->dcn);
  rs.replaceAllUsesWith(createReshape(b, loc, x, rs.getType()));
  rs.erase();
  return true;
}

bool decomposeAllGather(OpBuilder &b, AllGatherOp ag) {
  std::optional<Plan> plan = planFor(ag);
  if (!plan || plan->split.layout == GroupLayout::Interleaved)
    return false;
  int64_t i = plan->split.iciSize, d = plan->split.dcnSize;
  bool dcnMajor = plan->split.layout == GroupLayout::DcnMajor;
  int64_t g = ag.getDim();
  auto in = cast<RankedTensorType>(ag.getInput().getType());
  RankedTensorType expanded = expandDim(in, g, {1, 1, in.getDimSize(g)});
  int64_t iciDim = dcnMajor ? g + 1 : g, dcnDim = dcnMajor ? g : g + 1;
  Location loc = ag.getLoc();
  b.setInsertionPoint(ag);
  Value x = createReshape(b, loc, ag.getInput(), expanded);
  // The small blocks cross DCN first; ICI then moves d times more.
  RankedTensorType afterDcn = scaleDim(expanded, dcnDim, d);
  x = createAllGather(b, loc, afterDcn, x, dcnDim, plan->dcn);
  x = createAllGather(b, loc, scaleDim(afterDcn, iciDim, i), x, iciDim,
                      plan->ici);
  ag.replaceAllUsesWith(createReshape(b, loc, x, ag.getType()));
  ag.erase();
  return true;
}

} // namespace

void decomposeHierarchically(Operation *root, RewriteConfig &config) {
  SmallVector<Operation *> candidates;
  root->walk([&](Operation *op) {
    if (isa<AllReduceOp, ReduceScatterOp, AllGatherOp>(op))
      candidates.push_back(op);
  });
  OpBuilder b(root->getContext());
  for (Operation *op : candidates) {
    if (auto ar = dyn_cast<AllReduceOp>(op)) {
      if (config.enabled(Rewrite::HierarchicalAllReduce) &&
          decomposeAllReduce(b, ar))
        config.fired(Rewrite::HierarchicalAllReduce);
    } else if (auto rs = dyn_cast<ReduceScatterOp>(op)) {
      if (config.enabled(Rewrite::HierarchicalReduceScatter) &&
          decomposeReduceScatter(b, rs))
        config.fired(Rewrite::HierarchicalReduceScatter);
    } else if (auto ag = dyn_cast<AllGatherOp>(op)) {
      if (config.enabled(Rewrite::HierarchicalAllGather) &&
          decomposeAllGather(b, ag))
        config.fired(Rewrite::HierarchicalAllGather);
    }
  }
}

} // namespace xspmd::optimize
