//===- Propagation.h - sharding propagation over op rules -------*- C++ -*-===//
//
// Gives every tensor value of every function of a module a sharding,
// starting from the user's (function argument/result `xla.sharding`
// attributes, `xla.mark_sharding` ops, `xla.sharding` already on ops) and
// moving forward and backward through each op's sharding rule
// (dialects/xla/XlaShardingRule.h), in factor space.
//
//   - User shardings are never changed: their axes stay, closed dimensions
//     are never extended; an open dimension (`{"x", ?}`) may gain minor axes.
//   - User priorities (`p0` strongest) propagate in rounds: round p uses the
//     shardings of priority <= p and everything they reached before.
//   - Each round first spreads what all tensors of an op agree on, through
//     pass-through ops only, then through all ops (basic), then resolves
//     conflicts (aggressive): different axes for one factor, one axis
//     wanted by two factors, or whether to shard a reduction factor at all.
//     The stronger priority wins, then the cheaper choice by the
//     partitioner's reshard planner (ReshardCost.h), then the first
//     candidate.
//   - A sharded reduction factor leaves the op's result `partial`.
//   - Work is a FIFO worklist of ops; a value's sharding only grows, so each
//     op is revisited a bounded number of times: linear in the module.
//
// docs/propagation.md is the user-level description.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PROPAGATION_PROPAGATION_H
#define XSPMD_PASSES_PROPAGATION_PROPAGATION_H

#include "passes/partition/PartitionOptions.h"
#include "passes/propagation/ReshardCost.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace xspmd::prop {

struct PropagationOptions {
  CostModel costModel;
  /// When set, an explanation of every value's sharding (its origin) and of
  /// every conflict (the alternatives and their costs) is printed here.
  llvm::raw_ostream *explain = nullptr;
  /// Conflicts whose cheapest options are within `tieTolerance` (relative)
  /// of each other are re-decided by the estimated cost of the whole plan:
  /// propagation runs again with each other option forced, at most
  /// `globalTrials` runs per function (0: decide every conflict locally).
  int64_t globalTrials = 8;
  double tieTolerance = 0.05;
  /// The partitioner's halo mode the plan is priced for (its halo
  /// exchanges, concatenate exchanges and reshape relayouts).
  partition::HaloMode halo = partition::HaloMode::automatic;
};

/// Work counters, summed over the functions of a module.
struct PropagationStats {
  /// Ops (and returned values) propagation follows.
  int64_t records = 0;
  /// Times an op was propagated through; linear in `records`.
  int64_t visits = 0;
  /// Decisions taken by priority or cost.
  int64_t decisions = 0;
};

/// Propagates shardings in every function of `module` and writes them:
/// function argument and result attributes, `xla.sharding` on every op with
/// tensor results. A function that no sharding reaches is annotated
/// replicated over the module's first mesh; a module without a mesh is left
/// as is. Fails (with a diagnostic) only on malformed annotations.
mlir::LogicalResult propagateShardings(mlir::ModuleOp module,
                                       const PropagationOptions &options,
                                       PropagationStats *stats = nullptr);

} // namespace xspmd::prop

#endif // XSPMD_PASSES_PROPAGATION_PROPAGATION_H
