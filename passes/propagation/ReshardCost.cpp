//===- ReshardCost.cpp - bytes a reshard moves, weighted by link ----------===//

#include "passes/propagation/ReshardCost.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace xspmd::prop {

/// Index of the dimension of `s` holding `axis` and the axis's position in
/// it, or {-1, -1}.
static std::pair<int, int> findAxis(const AxisSharding &s, StringAttr axis) {
  for (auto [d, dim] : llvm::enumerate(s.dims))
    for (auto [i, a] : llvm::enumerate(dim))
      if (a == axis)
        return {static_cast<int>(d), static_cast<int>(i)};
  return {-1, -1};
}

double reshardCost(const AxisSharding &from, const AxisSharding &to,
                   double globalBytes, const MeshAxes &mesh,
                   const CostModel &model) {
  double local = globalBytes / from.numShards(mesh);
  double cost = 0;
  // Pending reductions first. Those that become a dimension are
  // reduce-scatters; the others one all-reduce over all of them.
  AxisList reduced;
  for (StringAttr axis : from.partial) {
    if (llvm::is_contained(to.partial, axis))
      continue;
    if (findAxis(to, axis).first < 0) {
      reduced.push_back(axis);
      continue;
    }
    double n = mesh.size(axis);
    cost += model.weight(mesh, axis) * local * (n - 1) / n;
  }
  cost += allReduceCost(reduced, 1, local, mesh, model);
  // Then every dimension axis that does not stay where it is. An axis stays
  // when the target holds the same axes before it in the same dimension.
  for (auto [d, dim] : llvm::enumerate(from.dims)) {
    for (auto [i, axis] : llvm::enumerate(dim)) {
      double n = mesh.size(axis), w = model.weight(mesh, axis);
      auto [toDim, toPos] = findAxis(to, axis);
      bool stays = toDim == static_cast<int>(d) &&
                   toPos == static_cast<int>(i) &&
                   std::equal(dim.begin(), dim.begin() + i, to.dims[d].begin());
      if (stays)
        continue;
      if (toDim >= 0 || llvm::is_contained(to.partial, axis)) {
        cost += w * local * (n - 1) / n;
        continue;
      }
      cost += w * local * (n - 1);
      local *= n;
    }
  }
  return cost;
}

double allReduceCost(ArrayRef<StringAttr> partial, int64_t numShards,
                     double globalBytes, const MeshAxes &mesh,
                     const CostModel &model) {
  // Hierarchically, cheapest links first: a reduce-scatter over each axis
  // shrinks what the next one moves, then all-gathers in reverse; over
  // axes of sizes n1..nk that is 2 * L * (1 - 1 / (n1 * ... * nk)) bytes,
  // each axis's share at its own rate.
  AxisList axes(partial.begin(), partial.end());
  llvm::stable_sort(axes, [&](StringAttr a, StringAttr b) {
    return model.weight(mesh, a) < model.weight(mesh, b);
  });
  double local = globalBytes / numShards;
  double cost = 0;
  for (StringAttr axis : axes) {
    double n = mesh.size(axis);
    cost += model.weight(mesh, axis) * 2 * local * (n - 1) / n;
    local /= n;
  }
  return cost;
}

} // namespace xspmd::prop
