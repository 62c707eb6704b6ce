//===- ReshardCost.h - how propagation prices a reshard ---------*- C++ -*-===//
//
// Propagation prices every reshard with the partitioner's own planner
// (passes/partition/ReshardPlanner.h), on the mesh refined at the sub-axes
// in use (xla::MeshRefinement): the bytes each device sends in the cheapest
// sequence of collectives, each byte weighted by the link class of the axes
// it travels on, plus a fixed cost per collective. One price serves the
// conflicts while propagation decides (OpEvaluator.h, Evaluator::cost), the
// reshards moved up a chain (ReshardPlacement.cpp) and the final plan
// (PlanCost.cpp), which is what the partitioner then carries out.
//
// What the planner cannot express the partitioner cannot carry out either:
// a value without a static shape has no size (its reshards cost nothing
// and are never moved up a chain), and a decision never prefers sub-axes
// whose cuts do not form a divisibility chain. The planned bytes leave
// both out. There is no other estimate.
//
// This header holds the link weights propagation gives the planner.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PROPAGATION_RESHARDCOST_H
#define XSPMD_PASSES_PROPAGATION_RESHARDCOST_H

namespace xspmd::prop {

/// Cost of one byte sent over each link class (a mixed ICI+DCN axis pays
/// the DCN rate: its collectives wait for the slowest hop), as
/// partition::ReshardCostModel and --xla-partition's ici/dcn-byte-cost.
struct CostModel {
  double iciByteCost = 1.0;
  double dcnByteCost = 16.0;
};

} // namespace xspmd::prop

#endif // XSPMD_PASSES_PROPAGATION_RESHARDCOST_H
