//===- AxisSharding.cpp - shardings as axis lists, factor projection ------===//

#include "passes/propagation/AxisSharding.h"

#include "dialects/xla/XlaSubAxes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace xspmd::prop {

MeshAxes::MeshAxes(xla::MeshAttr mesh) : mesh(mesh) {
  for (auto [i, axis] : llvm::enumerate(mesh.getAxes()))
    indexOf[axis.getName()] = i;
}

int64_t MeshAxes::index(StringAttr axis) const {
  auto it = indexOf.find(axis);
  if (it != indexOf.end())
    return it->second;
  std::optional<xla::ResolvedAxis> r = xla::resolveAxis(mesh, axis);
  return r ? r->index : -1;
}

int64_t MeshAxes::size(StringAttr axis) const {
  auto it = indexOf.find(axis);
  if (it != indexOf.end())
    return mesh.getAxes()[it->second].getSize();
  std::optional<xla::ResolvedAxis> r = xla::resolveAxis(mesh, axis);
  return r ? r->size : 1;
}

int64_t MeshAxes::product(ArrayRef<StringAttr> axes) const {
  int64_t n = 1;
  for (StringAttr axis : axes)
    n *= size(axis);
  return n;
}

int64_t AxisSharding::numShards(const MeshAxes &axes) const {
  int64_t n = 1;
  for (const AxisList &dim : dims)
    n *= axes.product(dim);
  return n;
}

bool AxisSharding::usesAxis(StringAttr axis) const {
  auto overlaps = [&](StringAttr other) {
    return xla::axesOverlap(axis.getValue(), other.getValue());
  };
  if (llvm::any_of(partial, overlaps))
    return true;
  return llvm::any_of(
      dims, [&](const AxisList &dim) { return llvm::any_of(dim, overlaps); });
}

AxisSharding AxisSharding::fromAttr(xla::ShardingAttr sharding) {
  AxisSharding s;
  for (xla::DimShardingAttr dim : sharding.getDims())
    s.dims.emplace_back(dim.getAxes().begin(), dim.getAxes().end());
  s.partial.assign(sharding.getPartialAxes().begin(),
                   sharding.getPartialAxes().end());
  return s;
}

size_t projectDim(ArrayRef<StringAttr> axes, ArrayRef<int64_t> dimFactors,
                  ArrayRef<int64_t> factorSizes, const MeshAxes &mesh,
                  MutableArrayRef<AxisList> factorAxes, bool shardElements) {
  if (dimFactors.empty())
    return 0;
  if (dimFactors.size() == 1) {
    int64_t f = dimFactors.front(), shards = 1;
    size_t placed = 0;
    for (StringAttr axis : axes) {
      if (shardElements && shards >= factorSizes[f])
        break;
      factorAxes[f].push_back(axis);
      shards *= mesh.size(axis);
      ++placed;
    }
    return placed;
  }
  size_t placed = 0, k = 0;
  int64_t covered = 1; // product of the axes on factor dimFactors[k]
  // Splitting an axis needs the dimension's shards to be contiguous, even
  // ranges: the axes so far must divide the dimension (no padding).
  int64_t dimSize = 1, axesSoFar = 1;
  for (int64_t f : dimFactors)
    dimSize *= factorSizes[f];
  for (StringAttr axis : axes) {
    axesSoFar *= mesh.size(axis);
    // An axis that covers the rest of this factor and part of the next
    // splits into two sub-axes (Shardy's "x":(1)2, "x":(2)2), as long as
    // both parts divide their factors.
    while (k < dimFactors.size()) {
      int64_t f = dimFactors[k];
      int64_t rest = factorSizes[f] / covered;
      if (mesh.size(axis) <= rest || k + 1 == dimFactors.size() ||
          mesh.size(axis) % rest != 0 || factorSizes[f] % covered != 0 ||
          dimSize % axesSoFar != 0)
        break;
      auto parts = xla::splitAxisAt(mesh.getMesh(), axis, rest);
      if (!parts)
        break;
      factorAxes[f].push_back(parts->first);
      axis = parts->second;
      ++k;
      covered = 1;
    }
    if (k == dimFactors.size())
      break;
    int64_t f = dimFactors[k];
    int64_t next = covered * mesh.size(axis);
    if (factorSizes[f] % next != 0)
      break; // the axis would not divide this factor
    factorAxes[f].push_back(axis);
    ++placed;
    covered = next;
    if (covered == factorSizes[f]) {
      ++k;
      covered = 1;
    }
  }
  return placed;
}

AxisList composeDim(ArrayRef<int64_t> dimFactors, ArrayRef<AxisList> factorAxes,
                    ArrayRef<int64_t> factorSizes, const MeshAxes &mesh) {
  AxisList axes;
  if (dimFactors.size() == 1)
    return factorAxes[dimFactors.front()];
  for (int64_t f : dimFactors) {
    int64_t covered = mesh.product(factorAxes[f]);
    if (factorSizes[f] % covered != 0)
      break; // uneven shards of a factor are not contiguous in the dimension
    llvm::append_range(axes, factorAxes[f]);
    if (covered != factorSizes[f])
      break;
  }
  // Parts of one axis on adjacent factors join again ("x":(1)2, "x":(2)2 is
  // "x").
  return AxisList(xla::canonicalizeAxes(mesh.getMesh(), axes));
}

bool isPrefix(ArrayRef<StringAttr> prefix, ArrayRef<StringAttr> list) {
  return prefix.size() <= list.size() &&
         std::equal(prefix.begin(), prefix.end(), list.begin());
}

} // namespace xspmd::prop
