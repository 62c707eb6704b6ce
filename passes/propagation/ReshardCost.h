//===- ReshardCost.h - bytes a reshard moves, weighted by link --*- C++ -*-===//
//
// The communication estimate propagation uses to resolve conflicts: the
// bytes one device receives when the partitioner turns a tensor of one
// sharding into another, each byte weighted by the link class of the mesh
// axis it travels on (a DCN byte costs more than an ICI byte).
//
// Per axis, with L the local size (bytes) at that point and n the axis size:
//
//   dimension axis dropped            all-gather       L * (n - 1), then L*=n
//   dimension axis moved elsewhere    all-to-all       L * (n - 1) / n
//   pending axis, now a dimension     reduce-scatter   L * (n - 1) / n
//   pending axes, dropped             all-reduce       2 * L * (1 - 1/prod(n))
//   axis added to a dimension         all-slice        free
//
// It is an estimate of volume, not time: the simulator (runtime/) models
// time. docs/propagation.md discusses the choice. It prices conflicts while
// propagation decides; the final plan is priced with the partitioner's
// ReshardPlanner (FunctionPropagation::recordCost), and this closed form is
// only its fallback (sub-axes, dynamic shapes).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PROPAGATION_RESHARDCOST_H
#define XSPMD_PASSES_PROPAGATION_RESHARDCOST_H

#include "passes/propagation/AxisSharding.h"

namespace xspmd::prop {

/// Cost of one byte received over each link class.
struct CostModel {
  double iciByteCost = 1.0;
  double dcnByteCost = 16.0;

  /// A mixed axis (ICI inside slices, DCN across them) is charged at the DCN
  /// rate: its collectives wait for the slowest hop.
  double weight(xla::LinkClass link) const {
    return link == xla::LinkClass::ici ? iciByteCost : dcnByteCost;
  }
  double weight(const MeshAxes &mesh, mlir::StringAttr axis) const {
    return weight(mesh.link(axis));
  }
};

/// Weighted bytes received per device to turn a tensor of `globalBytes`
/// sharded as `from` into `to`.
double reshardCost(const AxisSharding &from, const AxisSharding &to,
                   double globalBytes, const MeshAxes &mesh,
                   const CostModel &model);

/// Weighted bytes per device to all-reduce the pending axes `partial` of a
/// tensor of `globalBytes` whose dimensions are split in `numShards`
/// (hierarchically: ICI axes before DCN axes).
double allReduceCost(llvm::ArrayRef<mlir::StringAttr> partial,
                     int64_t numShards, double globalBytes,
                     const MeshAxes &mesh, const CostModel &model);

} // namespace xspmd::prop

#endif // XSPMD_PASSES_PROPAGATION_RESHARDCOST_H
