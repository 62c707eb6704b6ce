//===- OpPlan.cpp - how the partitioner carries out one op ----------------===//

#include "passes/partition/OpPlan.h"

#include "passes/partition/DynamicSlice.h"
#include "passes/partition/Indexing.h"
#include "passes/partition/LocalBuilder.h"
#include "passes/partition/ReduceRegion.h"
#include "passes/partition/Reverse.h"
#include "passes/partition/WindowedOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {
namespace {

/// How each op carries pending sums through (see PartialPolicy).
PartialPolicy partialPolicyOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, PartialPolicy>(op)
      .Case<AddOp, SubOp, NegOp, ReshapeOp, TransposeOp, BroadcastInDimOp,
            SliceOp, ConcatenateOp, ReverseOp>(
          [](auto) { return PartialPolicy::allOperands; })
      .Case([](PadOp pad) {
        return pad.getValue().isZero() ? PartialPolicy::allOperands
                                       : PartialPolicy::none;
      })
      .Case([](ReduceOp reduce) {
        return reduce.getKind() == ReduceKind::sum ||
                       reduce.getKind() == ReduceKind::mean
                   ? PartialPolicy::allOperands
                   : PartialPolicy::none;
      })
      .Case<MulOp, DotGeneralOp, MatmulOp, EinsumOp, ConvolutionOp>(
          [](auto) { return PartialPolicy::oneOperand; })
      .Default([](Operation *) { return PartialPolicy::none; });
}

int64_t elementBytesOf(Value v) {
  return (cast<RankedTensorType>(v.getType()).getElementTypeBitWidth() + 7) / 8;
}

/// Adds the group factor of a grouped convolution to `blocked` when its
/// shards do not divide the groups.
void blockUnevenGroups(Operation *op, const OpShardingRule &rule,
                       const FactorAssignment &assignment,
                       const MeshModel &mesh,
                       SmallVectorImpl<int64_t> &blocked) {
  // A grouped convolution keeps whole groups on a device: its group factor
  // (the major factor of the output features) may only be split into a
  // number of shards that divides the group count (found by differential
  // fuzzing: test/fuzz/regressions/conv-groups.mlir).
  auto conv = dyn_cast<ConvolutionOp>(op);
  // With one group there is no group factor (size-1 factors are dropped).
  if (!conv || conv.getFeatureGroups() == 1)
    return;
  int64_t groupFactor = rule.results.front().back().front();
  int64_t shards = 1;
  for (int a : assignment.factorAxes[groupFactor])
    shards *= mesh.axisSizes[a];
  if (shards > 1 && conv.getFeatureGroups() % shards != 0 &&
      !llvm::is_contained(blocked, groupFactor))
    blocked.push_back(groupFactor);
}

/// Dimensions of operand 0 of a windowed op whose permutation factor is
/// sharded, with their windows; adds factors whose window is too wide for a
/// halo exchange (or all, with halo=never) to `blocked`, and their
/// dimensions to `gathered`.
SmallVector<std::pair<int64_t, Window>>
windowedDims(Operation *op, const OpShardingRule &rule,
             const FactorAssignment &assignment, const MeshModel &mesh,
             HaloMode halo, SmallVectorImpl<int64_t> &blocked,
             SmallVectorImpl<std::pair<int64_t, StringRef>> &gathered) {
  SmallVector<std::pair<int64_t, Window>> windows;
  if (!isWindowedOp(op))
    return windows;
  for (auto [d, factors] : llvm::enumerate(rule.operands[0])) {
    if (factors.size() != 1 ||
        rule.factorKinds[factors[0]] != FactorKind::permutation ||
        assignment.factorAxes[factors[0]].empty())
      continue;
    SplitWindow split = planSplitWindow(op, d, assignment, mesh);
    if (split.kind == SplitWindow::halo && halo == HaloMode::never)
      split = {SplitWindow::gather, {}, "halo=never"};
    if (split.kind == SplitWindow::gather) {
      blocked.push_back(factors[0]);
      gathered.push_back({static_cast<int64_t>(d), split.reason});
    } else if (split.kind == SplitWindow::halo) {
      windows.push_back({static_cast<int64_t>(d), split.window});
    }
  }
  return windows;
}

/// What `choice` moves: operands resharded to its assignment (or, for a
/// concatenate, exchanged or gathered), its local results resharded to
/// `targets`, mirror and halo exchanges.
double priceRuleChoice(Operation *op, const RuleChoice &choice,
                       ArrayRef<ShardLayout> current,
                       ArrayRef<ShardLayout> targets, const MeshModel &mesh,
                       const ReshardCostModel &costs, ReshardPrice price) {
  const FactorAssignment &assignment = choice.assignment;
  auto reshard = [&](Value v, const ShardLayout &from, const ShardLayout &to) {
    return from == to ? 0.0 : price(v, shapeOf(v), elementBytesOf(v), from, to);
  };
  double cost = 0;
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    cost += reshard(result, assignment.results[i], targets[i]);
  if (auto concat = dyn_cast<ConcatenateOp>(op); concat && choice.concat) {
    cost += priceConcatExchange(concat, assignment, *choice.concat, mesh, costs,
                                [&](unsigned k, const ShardLayout &layout) {
                                  return reshard(op->getOperand(k), current[k],
                                                 layout);
                                });
  } else {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      cost += reshard(operand, current[i], assignment.operands[i]);
  }
  if (auto reverse = dyn_cast<ReverseOp>(op))
    cost += mirrorExchangeCost(reverse, assignment.operands[0], mesh, costs);
  // Each exchange sends edges of the block the earlier ones extended (a
  // window along one split dimension, then along the next).
  for (unsigned i : choice.windows.empty() ? SmallVector<unsigned>()
                                           : windowedOperands(op)) {
    const ShardLayout &layout = assignment.operands[i];
    SmallVector<int64_t> block = layout.localShape(mesh);
    for (auto [dim, window] : choice.windows) {
      double bytes = static_cast<double>(llvm::product_of(block)) *
                     elementBytesOf(op->getOperand(i));
      cost += haloExchangeCost(
          window, layout.numShards(mesh, dim), block[dim], bytes,
          costs.byteCost(mesh.linkOf(layout.dimAxes[dim])), costs);
      block[dim] = window.size;
    }
  }
  return cost;
}

} // namespace

RuleChoice chooseAssignment(Operation *op, const OpShardingRule &rule,
                            ArrayRef<ShardLayout> current,
                            ArrayRef<ShardLayout> targets,
                            ReshardPlanner &planner, HaloMode halo) {
  const MeshModel &mesh = planner.getMesh();
  auto planned = [&](Value, ArrayRef<int64_t> shape, int64_t elementBytes,
                     const ShardLayout &from, const ShardLayout &to) {
    return planner.plan(shape, elementBytes, from, to).cost;
  };
  SmallVector<ArrayRef<int64_t>> operandShapes, resultShapes;
  for (Value operand : op->getOperands())
    operandShapes.push_back(shapeOf(operand));
  for (Value result : op->getResults())
    resultShapes.push_back(shapeOf(result));
  // Candidate assignments: the result's layout decides first (what
  // propagation chose), or one operand's does; and operands split along a
  // reduction factor either keep that split (a pending sum to reduce
  // later) or are gathered (e.g. an FSDP weight whose all-gather is cheaper
  // than all-reducing the product). Keep the one whose reshards (operands
  // in, result out to its target) cost least; ties keep the earlier
  // candidate, so results-first with kept splits wins when nothing is
  // gained. Windowed ops and reverse may also gather their split windowed
  // (reversed) dimensions instead of exchanging halos (permuting mirror
  // blocks, passes/partition/Reverse.h); the permutes count in the cost.
  // halo=always or halo=never leaves one of the two.
  int64_t numOperands = op->getNumOperands();
  SmallVector<SmallVector<int64_t>> orders{{}};
  for (int64_t first = 0; first < numOperands; ++first) {
    SmallVector<int64_t> order{first, numOperands};
    for (int64_t o = 0; o < numOperands; ++o)
      if (o != first)
        order.push_back(o);
    orders.push_back(order);
  }
  struct Candidate {
    SmallVector<int64_t> order;
    bool splitReductions;
    bool shardPermutations;
  };
  bool exchanges = isWindowedOp(op) || isa<ReverseOp, ConcatenateOp>(op);
  SmallVector<bool, 2> permutationChoices{exchanges};
  // halo=never still lets windows that stay inside shards (a
  // select_and_scatter's) keep their split: windowedDims blocks the halos.
  if (exchanges && halo == HaloMode::never && isa<ReverseOp, ConcatenateOp>(op))
    permutationChoices = {false};
  if (exchanges && halo == HaloMode::automatic)
    permutationChoices.push_back(false);
  SmallVector<Candidate> candidates;
  for (bool shardPermutations : permutationChoices) {
    for (bool splitReductions : {true, false}) {
      if (!splitReductions &&
          !llvm::is_contained(rule.factorKinds, FactorKind::reduction))
        break;
      for (const SmallVector<int64_t> &order : orders)
        candidates.push_back({order, splitReductions, shardPermutations});
    }
  }
  RuleChoice best;
  for (const auto &[order, splitReductions, shardPermutations] : candidates) {
    AssignmentOptions options;
    options.operandsSplitReductions = splitReductions;
    // Results first: their layouts are what propagation chose for them.
    options.resultsDecideTheirFactors = order.empty();
    options.partialPolicy = partialPolicyOf(op);
    options.shardPermutationFactors = shardPermutations;
    options.offerOrder = order;
    RuleChoice candidate;
    while (true) {
      candidate.assignment = assignFactors(rule, mesh, current, operandShapes,
                                           targets, resultShapes, options);
      size_t blocked = options.blockedFactors.size();
      candidate.windows =
          windowedDims(op, rule, candidate.assignment, mesh, halo,
                       options.blockedFactors, candidate.gatheredWindows);
      blockUnevenGroups(op, rule, candidate.assignment, mesh,
                        options.blockedFactors);
      if (options.blockedFactors.size() == blocked)
        break;
    }
    if (auto scatter = dyn_cast<ScatterOp>(op))
      makeScatterInputsPartial(scatter, candidate.assignment);
    // A concatenate along a split dimension prices each operand's halo
    // exchange (and its reshard) against gathering it.
    if (auto concatOp = dyn_cast<ConcatenateOp>(op);
        concatOp &&
        !candidate.assignment.results[0].dimAxes[concatOp.getDim()].empty())
      candidate.concat = planConcatExchange(
          concatOp, candidate.assignment, mesh, planner.getCosts(), halo,
          [&](unsigned i, const ShardLayout &layout) {
            return current[i] == layout
                       ? 0.0
                       : planned(op->getOperand(i), operandShapes[i],
                                 elementBytesOf(op->getOperand(i)), current[i],
                                 layout);
          });
    candidate.cost = priceRuleChoice(op, candidate, current, targets, mesh,
                                     planner.getCosts(), planned);
    if (candidate.cost < best.cost)
      best = std::move(candidate);
    // Costs are never negative and ties keep the earlier candidate, so no
    // later one can replace a free assignment (most ops need no reshard).
    if (best.cost == 0)
      break;
  }
  return best;
}

OpPlan planOp(Operation *op, const OpShardingRule &rule,
              ArrayRef<ShardLayout> current, ArrayRef<ShardLayout> targets,
              ReshardPlanner &planner, HaloMode halo) {
  const MeshModel &mesh = planner.getMesh();
  auto reshardCost = [&](Value v, const ShardLayout &from,
                         const ShardLayout &to) {
    return from == to
               ? 0.0
               : planner.plan(shapeOf(v), elementBytesOf(v), from, to).cost;
  };
  OpPlan plan;
  // A reduce_region whose body is not a recognised reduction: reduced
  // dimensions are gathered, or reduced per shard and the shards' results
  // gathered and reduced again, whichever costs less.
  if (auto reduce = dyn_cast<ReduceRegionOp>(op);
      reduce && !reduce.getRecognizedReduction()) {
    plan.choice = chooseAssignment(op, rule, current, targets, planner, halo);
    plan.cost = plan.choice.cost;
    RuleChoice split = chooseAssignment(op, splitReducedDims(reduce, rule),
                                        current, targets, planner, halo);
    const FactorAssignment &assignment = split.assignment;
    if (assignment.results.front().partialAxes.empty())
      return plan;
    // The two-stage plan's cost: its operands' reshards, the gather of the
    // partial results, and the combined results' reshards to their targets.
    double cost = partialGatherCost(reduce, assignment.results, planner);
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      cost += reshardCost(operand, current[i], assignment.operands[i]);
    SmallVector<ShardLayout> combined;
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      ShardLayout layout = assignment.results[i];
      layout.partialAxes.clear();
      cost += reshardCost(result, layout, targets[i]);
      combined.push_back(std::move(layout));
    }
    if (cost >= plan.cost)
      return plan;
    plan.kind = OpPlan::twoStageReduce;
    plan.choice = std::move(split);
    plan.combined = std::move(combined);
    plan.cost = cost;
    return plan;
  }
  plan.choice = chooseAssignment(op, rule, current, targets, planner, halo);
  plan.cost = plan.choice.cost;
  // A reshape between contiguous splits by a halo exchange on the flattened
  // blocks, when it costs less (or halo=always).
  if (auto reshape = dyn_cast<ReshapeOp>(op);
      reshape && halo != HaloMode::never)
    if (std::optional<FlatRelayout> relayout = planFlatRelayout(
            reshape, current[0], targets[0], mesh, planner.getCosts());
        relayout &&
        !(halo == HaloMode::automatic && relayout->cost >= plan.cost)) {
      plan.kind = OpPlan::flatRelayout;
      plan.cost = relayout->cost;
      plan.relayout = std::move(relayout);
      return plan;
    }
  // A dynamic_slice over split offset dimensions by a masked local slice,
  // a pending sum, when its reduction costs less.
  if (auto slice = dyn_cast<DynamicSliceOp>(op))
    if (std::optional<ShardLayout> masked =
            maskedSliceLayout(slice, current[0], mesh)) {
      double cost = reshardCost(slice.getResult(), *masked, targets[0]);
      if (cost < plan.cost) {
        plan.kind = OpPlan::maskedSlice;
        plan.cost = cost;
        plan.masked = std::move(masked);
      }
    }
  return plan;
}

double priceOpPlan(Operation *op, const OpPlan &plan,
                   ArrayRef<ShardLayout> current, ArrayRef<ShardLayout> targets,
                   const MeshModel &mesh, const ReshardCostModel &costs,
                   ReshardPrice price) {
  auto reshard = [&](Value v, const ShardLayout &from, const ShardLayout &to) {
    return from == to ? 0.0 : price(v, shapeOf(v), elementBytesOf(v), from, to);
  };
  switch (plan.kind) {
  case OpPlan::rule:
    return priceRuleChoice(op, plan.choice, current, targets, mesh, costs,
                           price);
  case OpPlan::flatRelayout: {
    std::optional<FlatRelayout> relayout = planFlatRelayout(
        cast<ReshapeOp>(op), current[0], targets[0], mesh, costs);
    return relayout ? relayout->cost : 0.0;
  }
  case OpPlan::maskedSlice: {
    // The offsets are read whole; the pending result is reduced to its
    // target.
    double cost = reshard(op->getResult(0), *plan.masked, targets[0]);
    for (unsigned i = 1, e = op->getNumOperands(); i < e; ++i)
      cost +=
          reshard(op->getOperand(i), current[i], ShardLayout::replicated({}));
    return cost;
  }
  case OpPlan::twoStageReduce: {
    const FactorAssignment &assignment = plan.choice.assignment;
    double cost = partialGatherPrice(
        cast<ReduceRegionOp>(op), assignment.results, mesh,
        [&](ArrayRef<int64_t> shape, int64_t elementBytes,
            const ShardLayout &from, const ShardLayout &to) {
          return from == to ? 0.0 : price({}, shape, elementBytes, from, to);
        });
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      cost += reshard(operand, current[i], assignment.operands[i]);
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      cost += reshard(result, plan.combined[i], targets[i]);
    return cost;
  }
  }
  return 0;
}

bool decidesBeyondAssignment(Operation *op) {
  if (auto reduce = dyn_cast<ReduceRegionOp>(op))
    return !reduce.getRecognizedReduction();
  return isWindowedOp(op) || isa<ConcatenateOp, ReverseOp, ReshapeOp,
                                 DynamicSliceOp, HloGatherOp, GatherOp>(op);
}

} // namespace xspmd::partition
