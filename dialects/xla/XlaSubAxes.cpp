//===- XlaSubAxes.cpp - sub-axes of mesh axes -----------------------------===//

#include "dialects/xla/XlaSubAxes.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace mlir;

namespace xspmd::xla {

std::optional<SubAxisName> parseSubAxisName(StringRef name) {
  // "parent:(m)k": the last ":(" starts the suffix, so parents may hold ':'.
  size_t colon = name.rfind(":(");
  if (colon == StringRef::npos || colon == 0)
    return std::nullopt;
  SubAxisName result;
  result.parent = name.take_front(colon);
  StringRef rest = name.drop_front(colon + 2);
  size_t close = rest.find(')');
  if (close == StringRef::npos)
    return std::nullopt;
  if (rest.take_front(close).getAsInteger(10, result.preSize) ||
      rest.drop_front(close + 1).getAsInteger(10, result.size))
    return std::nullopt;
  if (result.preSize < 1 || result.size < 1)
    return std::nullopt;
  return result;
}

std::string formatSubAxisName(StringRef parent, int64_t preSize, int64_t size) {
  return (parent + ":(" + llvm::Twine(preSize) + ")" + llvm::Twine(size)).str();
}

std::string displayAxisName(StringRef name) {
  if (std::optional<SubAxisName> sub = parseSubAxisName(name))
    return "\"" + sub->parent.str() + "\":(" + std::to_string(sub->preSize) +
           ")" + std::to_string(sub->size);
  return "\"" + name.str() + "\"";
}

std::optional<ResolvedAxis> resolveAxis(MeshAttr mesh, StringRef name) {
  ResolvedAxis r;
  r.index = mesh.getAxisIndex(name);
  if (r.index >= 0) {
    r.axisSize = r.size = mesh.getAxes()[r.index].getSize();
    return r;
  }
  std::optional<SubAxisName> sub = parseSubAxisName(name);
  if (!sub)
    return std::nullopt;
  r.index = mesh.getAxisIndex(sub->parent);
  if (r.index < 0)
    return std::nullopt;
  r.axisSize = mesh.getAxes()[r.index].getSize();
  r.preSize = sub->preSize;
  r.size = sub->size;
  if (r.size < 2 || r.axisSize % (r.preSize * r.size) != 0)
    return std::nullopt;
  return r;
}

std::string explainUnresolvedAxis(MeshAttr mesh, StringRef name) {
  std::optional<SubAxisName> sub = parseSubAxisName(name);
  if (!sub || mesh.getAxisIndex(sub->parent) < 0)
    return "";
  int64_t n = mesh.getAxes()[mesh.getAxisIndex(sub->parent)].getSize();
  std::string text = "sub-axis \"" + sub->parent.str() + "\":(" +
                     std::to_string(sub->preSize) + ")" +
                     std::to_string(sub->size);
  if (sub->size < 2)
    return text + " must have a size of at least 2";
  return text + " does not fit axis \"" + sub->parent.str() + "\" of size " +
         std::to_string(n) + " (pre-size times size must divide it)";
}

bool axesOverlap(StringRef a, StringRef b) {
  if (a == b)
    return true;
  std::optional<SubAxisName> sa = parseSubAxisName(a);
  std::optional<SubAxisName> sb = parseSubAxisName(b);
  StringRef pa = sa ? sa->parent : a, pb = sb ? sb->parent : b;
  if (pa != pb)
    return false;
  if (!sa || !sb)
    return true; // an axis and a part of it
  return std::max(sa->preSize, sb->preSize) <
         std::min(sa->preSize * sa->size, sb->preSize * sb->size);
}

SmallVector<StringAttr> canonicalizeAxes(MeshAttr mesh,
                                         ArrayRef<StringAttr> axes) {
  SmallVector<StringAttr> out;
  MLIRContext *ctx = mesh.getContext();
  for (StringAttr axis : axes) {
    if (!out.empty()) {
      std::optional<ResolvedAxis> prev = resolveAxis(mesh, out.back());
      std::optional<ResolvedAxis> cur = resolveAxis(mesh, axis);
      // Adjacent parts of one axis, major then minor, merge.
      if (prev && cur && prev->index == cur->index &&
          mesh.getAxisIndex(out.back()) < 0 && mesh.getAxisIndex(axis) < 0 &&
          prev->preSize * prev->size == cur->preSize) {
        std::string parent =
            mesh.getAxes()[prev->index].getName().getValue().str();
        out.back() =
            StringAttr::get(ctx, formatSubAxisName(parent, prev->preSize,
                                                   prev->size * cur->size));
      } else {
        out.push_back(axis);
      }
    } else {
      out.push_back(axis);
    }
    std::optional<ResolvedAxis> last = resolveAxis(mesh, out.back());
    if (last && mesh.getAxisIndex(out.back()) < 0 && last->isWhole())
      out.back() = mesh.getAxes()[last->index].getName();
  }
  return out;
}

std::optional<std::pair<StringAttr, StringAttr>>
splitAxisAt(MeshAttr mesh, StringAttr axis, int64_t cut) {
  std::optional<ResolvedAxis> r = resolveAxis(mesh, axis);
  // Only axes of the mesh as written (not atoms of a refined mesh) split.
  if (!r || cut <= 1 || cut >= r->size || r->size % cut != 0)
    return std::nullopt;
  StringRef parent = mesh.getAxes()[r->index].getName().getValue();
  if (!r->isWhole() && mesh.getAxisIndex(axis) >= 0)
    return std::nullopt;
  MLIRContext *ctx = mesh.getContext();
  return std::make_pair(
      StringAttr::get(ctx, formatSubAxisName(parent, r->preSize, cut)),
      StringAttr::get(
          ctx, formatSubAxisName(parent, r->preSize * cut, r->size / cut)));
}

//===----------------------------------------------------------------------===//
// Refinement
//===----------------------------------------------------------------------===//

SmallVector<StringAttr> MeshRefinement::expand(StringAttr name) const {
  std::optional<ResolvedAxis> r = resolveAxis(original, name);
  if (!r)
    return {};
  const AxisAtoms &a = atoms[r->index];
  if (a.names.empty())
    return r->isWhole() ? SmallVector<StringAttr>{name}
                        : SmallVector<StringAttr>{};
  SmallVector<StringAttr> out;
  int64_t covered = 1;
  for (size_t i = 0; i + 1 < a.cuts.size(); ++i)
    if (a.cuts[i] >= r->preSize && a.cuts[i + 1] <= r->preSize * r->size) {
      out.push_back(a.names[i]);
      covered *= a.cuts[i + 1] / a.cuts[i];
    }
  if (covered != r->size)
    return {};
  return out;
}

std::optional<MeshRefinement>
MeshRefinement::build(MeshAttr mesh, ArrayRef<std::set<int64_t>> cuts,
                      std::string &error) {
  MLIRContext *ctx = mesh.getContext();
  MeshRefinement ref;
  ref.original = mesh;
  ref.atoms.resize(mesh.getRank());
  SmallVector<MeshAxisAttr> axes;
  SmallVector<int64_t> dcn;
  for (auto [i, axis] : llvm::enumerate(mesh.getAxes())) {
    int64_t n = axis.getSize(), d = mesh.getDcnSize(i);
    std::set<int64_t> points = i < cuts.size() ? cuts[i] : std::set<int64_t>{};
    points.insert(1);
    points.insert(n);
    if (points.size() <= 2) {
      axes.push_back(axis);
      dcn.push_back(d);
      continue;
    }
    AxisAtoms &atoms = ref.atoms[i];
    atoms.cuts.assign(points.begin(), points.end());
    StringRef name = axis.getName().getValue();
    for (size_t k = 0; k + 1 < atoms.cuts.size(); ++k) {
      int64_t p = atoms.cuts[k], q = atoms.cuts[k + 1];
      if (q % p != 0) {
        error = ("sub-axes of mesh axis \"" + name +
                 "\" are incompatible: a part ending at " + Twine(q) +
                 " does not follow one ending at " + Twine(p) +
                 " (each sub-axis boundary must divide the next)")
                    .str();
        return std::nullopt;
      }
      // On a hybrid mesh the DCN part of an axis is its major part.
      int64_t dcnEnd = std::min(q, d);
      int64_t atomDcn = p < d ? dcnEnd / p : 1;
      if ((p < d && dcnEnd % p != 0) || q % (p * atomDcn) != 0) {
        error = ("sub-axis \"" + name + "\":(" + Twine(p) + ")" + Twine(q / p) +
                 " splits the DCN part (" + Twine(d) +
                 ") of a hybrid mesh axis unevenly")
                    .str();
        return std::nullopt;
      }
      StringAttr atom = StringAttr::get(ctx, formatSubAxisName(name, p, q / p));
      atoms.names.push_back(atom);
      axes.push_back(MeshAxisAttr::get(ctx, atom, q / p));
      dcn.push_back(atomDcn);
    }
  }
  ref.refined = MeshAttr::get(ctx, axes, mesh.getDeviceIds(),
                              mesh.isHybrid() ? ArrayRef<int64_t>(dcn)
                                              : ArrayRef<int64_t>());
  return ref;
}

static SmallVector<StringAttr> expandAll(const MeshRefinement &ref,
                                         ArrayRef<StringAttr> names) {
  SmallVector<StringAttr> out;
  for (StringAttr name : names) {
    SmallVector<StringAttr> atoms = ref.expand(name);
    if (atoms.empty())
      out.push_back(name); // the verifier reports names that do not resolve
    else
      llvm::append_range(out, atoms);
  }
  return out;
}

static ShardingAttr refineSharding(const MeshRefinement &ref, ShardingAttr s) {
  MLIRContext *ctx = s.getContext();
  SmallVector<DimShardingAttr> dims;
  for (DimShardingAttr dim : s.getDims())
    dims.push_back(DimShardingAttr::get(ctx, expandAll(ref, dim.getAxes()),
                                        dim.getIsOpen(), dim.getPriority()));
  return ShardingAttr::get(ctx, s.getMesh(), dims,
                           expandAll(ref, s.getPartialAxes()),
                           s.getPartialKind());
}

void noteSubAxisCuts(MeshAttr mesh, StringAttr axis, SubAxisCuts &cuts) {
  if (mesh.getAxisIndex(axis) >= 0)
    return;
  std::optional<ResolvedAxis> r = resolveAxis(mesh, axis);
  if (!r)
    return; // the verifier reports it
  cuts.resize(mesh.getRank());
  cuts[r->index].insert(r->preSize);
  cuts[r->index].insert(r->preSize * r->size);
}

void noteReshapeCuts(MeshAttr mesh, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> otherShape,
                     ArrayRef<SmallVector<StringAttr>> dimAxes,
                     SubAxisCuts &cuts) {
  // Where the other side's dimensions begin, in elements of the flattened
  // tensor (prefix products).
  SmallVector<int64_t> boundaries;
  int64_t prefix = 1;
  for (int64_t size : otherShape) {
    if (size <= 0)
      return;
    prefix *= size;
    boundaries.push_back(prefix);
  }
  prefix = 1;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (size <= 0)
      return;
    int64_t before = prefix;
    prefix *= size;
    if (d >= dimAxes.size() || dimAxes[d].empty())
      continue;
    SmallVector<ResolvedAxis> axes;
    int64_t shards = 1;
    for (StringAttr name : dimAxes[d]) {
      std::optional<ResolvedAxis> r = resolveAxis(mesh, name);
      if (!r)
        return;
      axes.push_back(*r);
      shards *= r->size;
    }
    for (int64_t boundary : boundaries) {
      // The other side's dimension starting `major` elements into this one.
      if (boundary <= before || boundary >= prefix || boundary % before != 0)
        continue;
      int64_t major = boundary / before;
      if (size % major != 0 || major >= shards || shards % major != 0)
        continue;
      int64_t outer = 1;
      for (const ResolvedAxis &axis : axes) {
        if (outer < major && major < outer * axis.size && major % outer == 0 &&
            axis.size % (major / outer) == 0) {
          SubAxisCuts tentative = cuts;
          tentative.resize(mesh.getRank());
          tentative[axis.index].insert(axis.preSize);
          tentative[axis.index].insert(axis.preSize * axis.size);
          tentative[axis.index].insert(axis.preSize * (major / outer));
          std::string error;
          if (MeshRefinement::build(mesh, tentative, error))
            cuts = std::move(tentative);
          break;
        }
        outer *= axis.size;
      }
    }
  }
}

std::optional<std::pair<MeshAttr, ShardingAttr>>
refineForSharding(MeshAttr mesh, ShardingAttr sharding, std::string &error) {
  SmallVector<std::set<int64_t>> cuts;
  for (DimShardingAttr dim : sharding.getDims())
    for (StringAttr axis : dim.getAxes())
      noteSubAxisCuts(mesh, axis, cuts);
  for (StringAttr axis : sharding.getPartialAxes())
    noteSubAxisCuts(mesh, axis, cuts);
  if (cuts.empty())
    return std::make_pair(mesh, sharding);
  std::optional<MeshRefinement> ref = MeshRefinement::build(mesh, cuts, error);
  if (!ref)
    return std::nullopt;
  return std::make_pair(ref->getRefined(), refineSharding(*ref, sharding));
}

MeshAttr primeRefinedMesh(MeshAttr mesh) {
  SmallVector<std::set<int64_t>> cuts(mesh.getRank());
  for (auto [i, axis] : llvm::enumerate(mesh.getAxes())) {
    int64_t n = axis.getSize(), pre = 1;
    for (int64_t p = 2; p <= n; ++p)
      while (n % (pre * p) == 0 && pre * p < n) {
        pre *= p;
        cuts[i].insert(pre);
      }
  }
  std::string error;
  std::optional<MeshRefinement> ref = MeshRefinement::build(mesh, cuts, error);
  return ref ? ref->getRefined() : MeshAttr();
}

LogicalResult refineSubAxes(ModuleOp module) {
  // Cut points per mesh symbol and axis, from every sub-axis in use.
  llvm::DenseMap<StringAttr, SmallVector<std::set<int64_t>>> cuts;
  llvm::DenseMap<StringAttr, MeshOp> meshes;
  for (auto mesh : module.getOps<MeshOp>())
    meshes[mesh.getSymNameAttr()] = mesh;
  auto note = [&](FlatSymbolRefAttr meshRef, StringAttr axis) {
    if (!meshRef)
      return;
    auto it = meshes.find(meshRef.getAttr());
    if (it == meshes.end())
      return;
    MeshAttr mesh = it->second.getMesh();
    if (mesh.getAxisIndex(axis) >= 0 || !resolveAxis(mesh, axis))
      return;
    noteSubAxisCuts(mesh, axis, cuts[meshRef.getAttr()]);
  };
  module->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](ShardingAttr s) {
      for (DimShardingAttr dim : s.getDims())
        for (StringAttr axis : dim.getAxes())
          note(s.getMesh(), axis);
      for (StringAttr axis : s.getPartialAxes())
        note(s.getMesh(), axis);
    });
    if (auto coll = dyn_cast<CollectiveOpInterface>(op))
      if (ArrayAttr axes = coll.getAxesAttr())
        for (auto name : axes.getAsRange<StringAttr>())
          note(coll.getMeshAttr(), name);
  });
  // Reshapes whose split is carried by parts of an axis (a dimension of
  // the other side begins inside it) plan on those parts.
  module->walk([&](ReshapeOp reshape) {
    auto axesOf = [&](Attribute attr, FlatSymbolRefAttr &meshRef) {
      SmallVector<SmallVector<StringAttr>> dims;
      auto sharding = dyn_cast_if_present<ShardingAttr>(attr);
      if (!sharding)
        return dims;
      meshRef = sharding.getMesh();
      for (DimShardingAttr dim : sharding.getDims())
        dims.emplace_back(dim.getAxes());
      return dims;
    };
    Value operand = reshape.getOperand();
    Attribute operandAttr;
    if (auto result = dyn_cast<OpResult>(operand))
      operandAttr =
          getResultShardingAttr(result.getOwner(), result.getResultNumber());
    else if (auto arg = dyn_cast<BlockArgument>(operand))
      if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
        operandAttr = func.getArgAttr(arg.getArgNumber(), kShardingAttrName);
    FlatSymbolRefAttr inMesh, outMesh;
    SmallVector<SmallVector<StringAttr>> inAxes = axesOf(operandAttr, inMesh);
    SmallVector<SmallVector<StringAttr>> outAxes =
        axesOf(getResultShardingAttr(reshape, 0), outMesh);
    auto inType = dyn_cast<RankedTensorType>(operand.getType());
    auto outType = dyn_cast<RankedTensorType>(reshape.getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape())
      return;
    for (auto [meshRef, axes, shape, other] :
         {std::make_tuple(inMesh, inAxes, inType.getShape(),
                          outType.getShape()),
          std::make_tuple(outMesh, outAxes, outType.getShape(),
                          inType.getShape())}) {
      if (!meshRef || !meshes.count(meshRef.getAttr()))
        continue;
      noteReshapeCuts(meshes[meshRef.getAttr()].getMesh(), shape, other, axes,
                      cuts[meshRef.getAttr()]);
    }
  });
  SmallVector<StringAttr> uncut;
  for (auto &[sym, perAxis] : cuts)
    if (llvm::all_of(perAxis, [](const auto &c) { return c.empty(); }))
      uncut.push_back(sym);
  for (StringAttr sym : uncut)
    cuts.erase(sym);
  if (cuts.empty())
    return success();

  llvm::DenseMap<StringAttr, MeshRefinement> refinements;
  for (auto &[sym, perAxis] : cuts) {
    MeshOp meshOp = meshes[sym];
    std::string error;
    std::optional<MeshRefinement> ref =
        MeshRefinement::build(meshOp.getMesh(), perAxis, error);
    if (!ref)
      return meshOp.emitError() << error;
    refinements[sym] = std::move(*ref);
  }

  MLIRContext *ctx = module.getContext();
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](ShardingAttr s) -> std::optional<Attribute> {
    auto it = refinements.find(s.getMesh().getAttr());
    if (it == refinements.end())
      return std::nullopt;
    return refineSharding(it->second, s);
  });
  module->walk([&](Operation *op) {
    replacer.replaceElementsIn(op, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                               /*replaceTypes=*/false);
    auto coll = dyn_cast<CollectiveOpInterface>(op);
    if (!coll || !coll.getAxesAttr() || !coll.getMeshAttr())
      return;
    auto it = refinements.find(coll.getMeshAttr().getAttr());
    if (it == refinements.end())
      return;
    SmallVector<StringAttr> names(coll.getAxesAttr().getAsRange<StringAttr>());
    SmallVector<Attribute> expanded;
    for (StringAttr name : expandAll(it->second, names))
      expanded.push_back(name);
    op->setAttr("axes", ArrayAttr::get(ctx, expanded));
  });
  for (auto &[sym, ref] : refinements)
    meshes[sym].setMeshAttr(ref.getRefined());
  return success();
}

} // namespace xspmd::xla
