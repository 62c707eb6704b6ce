//===- OpPlan.h - how the partitioner carries out one op --------*- C++ -*-===//
//
// The decisions the partitioner makes by itself for one op, from its
// operands' layouts and its results' target layouts alone: which factor
// assignment, halo exchange or gather of split windowed dimensions
// (windowed ops, concatenate, reverse), a flat halo exchange for a
// reshape, a masked dynamic_slice, a two-stage general reduction. The
// partitioner builds what planOp chooses; --xla-explain-sharding prices
// the layouts propagation chose through the same functions (planOp, then
// priceOpPlan in bytes), so its planned bytes and the partitioner's
// emitted bytes compare op by op (test/partition/explain-bytes.test).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_OPPLAN_H
#define XSPMD_PASSES_PARTITION_OPPLAN_H

#include "passes/partition/Concatenate.h"
#include "passes/partition/FactorAssignment.h"
#include "passes/partition/Halo.h"
#include "passes/partition/PartitionOptions.h"
#include "passes/partition/ReshapeRelayout.h"
#include "passes/partition/ReshardPlanner.h"

#include "dialects/xla/XlaShardingRule.h"

#include <limits>
#include <optional>

namespace xspmd::partition {

/// An assignment of an op's factors and what its reshards cost.
struct RuleChoice {
  FactorAssignment assignment;
  /// Dimensions of the windowed operands that get a halo exchange.
  llvm::SmallVector<std::pair<int64_t, Window>> windows;
  /// Split windowed dimensions gathered instead, and why.
  llvm::SmallVector<std::pair<int64_t, llvm::StringRef>> gatheredWindows;
  /// A concatenate along a split dimension: each operand's exchange.
  std::optional<ConcatExchange> concat;
  double cost = std::numeric_limits<double>::infinity();
};

/// How one op is carried out.
struct OpPlan {
  enum Kind {
    /// The local op of `choice`, operands resharded to its assignment.
    rule,
    /// A reshape by a halo exchange of the flattened blocks (`relayout`).
    flatRelayout,
    /// A dynamic_slice by a masked local slice, a pending sum laid out as
    /// `masked`, reduced to the target.
    maskedSlice,
    /// A reduce_region reduced per shard (`choice`'s assignment of the
    /// split rule), its partial results gathered and reduced again.
    twoStageReduce,
  } kind = rule;
  RuleChoice choice;
  std::optional<FlatRelayout> relayout;
  std::optional<ShardLayout> masked;
  /// The two-stage results once combined (no longer partial).
  llvm::SmallVector<ShardLayout> combined;
  /// In the planner's units.
  double cost = 0;
};

/// What resharding a tensor of `shape` (`elementBytes`-byte elements) from
/// `from` to `to` costs; `value` is the tensor resharded (null for an
/// intermediate the plan builds, like stacked partial results).
using ReshardPrice = llvm::function_ref<double(
    mlir::Value value, llvm::ArrayRef<int64_t> shape, int64_t elementBytes,
    const ShardLayout &from, const ShardLayout &to)>;

/// The cheapest assignment of `rule`'s factors for `op` whose operands are
/// laid out as `current` and whose results must become `targets`.
RuleChoice chooseAssignment(mlir::Operation *op,
                            const xla::OpShardingRule &rule,
                            llvm::ArrayRef<ShardLayout> current,
                            llvm::ArrayRef<ShardLayout> targets,
                            ReshardPlanner &planner, HaloMode halo);

/// How the partitioner carries out `op` (rule: its sharding rule) from
/// `current` to `targets`, deciding in the planner's units.
OpPlan planOp(mlir::Operation *op, const xla::OpShardingRule &rule,
              llvm::ArrayRef<ShardLayout> current,
              llvm::ArrayRef<ShardLayout> targets, ReshardPlanner &planner,
              HaloMode halo);

/// What `plan` moves for `op`: reshards priced by `price`, halo exchanges
/// by `costs` ({1, 1, 0}: bytes per device).
double priceOpPlan(mlir::Operation *op, const OpPlan &plan,
                   llvm::ArrayRef<ShardLayout> current,
                   llvm::ArrayRef<ShardLayout> targets,
                   const xla::MeshModel &mesh, const ReshardCostModel &costs,
                   ReshardPrice price);

/// Whether the partitioner makes decisions for `op` that a factor
/// assignment alone does not describe (halo exchanges, concatenate,
/// reverse (mirror exchanges),
/// reshape relayouts, masked dynamic slices, two-stage reductions, gathers
/// of a split table).
bool decidesBeyondAssignment(mlir::Operation *op);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_OPPLAN_H
