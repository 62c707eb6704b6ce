//===- AxisSharding.cpp - shardings as axis lists, factor projection ------===//

#include "passes/propagation/AxisSharding.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace xspmd::prop {

MeshAxes::MeshAxes(xla::MeshAttr mesh) : mesh(mesh) {
  for (auto [i, axis] : llvm::enumerate(mesh.getAxes()))
    indexOf[axis.getName()] = i;
}

int64_t MeshAxes::index(StringAttr axis) const {
  auto it = indexOf.find(axis);
  return it == indexOf.end() ? -1 : it->second;
}

int64_t MeshAxes::size(StringAttr axis) const {
  int64_t i = index(axis);
  return i < 0 ? 1 : mesh.getAxes()[i].getSize();
}

xla::LinkClass MeshAxes::link(StringAttr axis) const {
  int64_t i = index(axis);
  return i < 0 ? xla::LinkClass::ici : mesh.getLinkClass(i);
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
  if (llvm::is_contained(partial, axis))
    return true;
  return llvm::any_of(
      dims, [&](const AxisList &dim) { return llvm::is_contained(dim, axis); });
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
                  MutableArrayRef<AxisList> factorAxes) {
  if (dimFactors.empty())
    return 0;
  if (dimFactors.size() == 1) {
    llvm::append_range(factorAxes[dimFactors.front()], axes);
    return axes.size();
  }
  size_t placed = 0, k = 0;
  int64_t covered = 1; // product of the axes on factor dimFactors[k]
  for (StringAttr axis : axes) {
    if (k == dimFactors.size())
      break;
    int64_t f = dimFactors[k];
    int64_t next = covered * mesh.size(axis);
    if (factorSizes[f] % next != 0)
      break; // the axis would straddle two factors or not divide this one
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
  return axes;
}

bool isPrefix(ArrayRef<StringAttr> prefix, ArrayRef<StringAttr> list) {
  return prefix.size() <= list.size() &&
         std::equal(prefix.begin(), prefix.end(), list.begin());
}

} // namespace xspmd::prop
