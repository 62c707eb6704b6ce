//===- FactorAssignment.h - which mesh axes shard which factor --*- C++ -*-===//
//
// Given an op's sharding rule, the layouts its operands have and the layout
// propagation chose for its result, decides which mesh axes shard each
// factor, and from that the layout every operand must be resharded to and
// the layout the local op computes.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_FACTORASSIGNMENT_H
#define XSPMD_PASSES_PARTITION_FACTORASSIGNMENT_H

#include "dialects/xla/XlaShardingRule.h"
#include "passes/partition/ReshardPlanner.h"

namespace xspmd::partition {

/// How an op treats pending (partial, sum) values in its operands.
enum class PartialPolicy {
  /// Operands must be fully reduced first.
  none,
  /// Linear in every operand (add, sub, reshape, ...): all operands carry the
  /// same pending sum, and so does the result.
  allOperands,
  /// Linear in each operand separately (contractions): at most one operand
  /// carries the pending sum.
  oneOperand,
};

struct FactorAssignment {
  /// Mesh axes of each factor, major to minor.
  llvm::SmallVector<llvm::SmallVector<int, 2>> factorAxes;
  /// Layout each operand must have.
  llvm::SmallVector<ShardLayout> operands;
  /// Layout of each result of the local op.
  llvm::SmallVector<ShardLayout> results;
};

/// What the op's local construction can do beyond pass-through and
/// reduction factors.
struct AssignmentOptions {
  PartialPolicy partialPolicy = PartialPolicy::none;
  /// Permutation factors may be sharded (the op exchanges halos).
  bool shardPermutationFactors = false;
  /// Operands may keep their split of a reduction factor (the result is
  /// then a pending reduction); when false every reduction factor is
  /// whole and operands split along one are gathered.
  bool operandsSplitReductions = true;
  /// The results' layouts are final for their factors: operands offered
  /// afterwards may split only factors no result has (reduction factors).
  /// This is the candidate that carries out propagation's plan exactly.
  bool resultsDecideTheirFactors = false;
  /// Factors that must stay unsharded (e.g. a window too wide for a halo).
  llvm::SmallVector<int64_t> blockedFactors;
  /// The order in which tensors offer their splits to the factors (operands
  /// 0..n-1, then results); empty: results first, then operands in order.
  llvm::SmallVector<int64_t> offerOrder;
};

/// `operandLayouts` are the operands' current layouts, `resultTargets` the
/// layouts propagation chose for the results; shapes are global.
FactorAssignment
assignFactors(const xla::OpShardingRule &rule, const MeshModel &mesh,
              llvm::ArrayRef<ShardLayout> operandLayouts,
              llvm::ArrayRef<llvm::ArrayRef<int64_t>> operandShapes,
              llvm::ArrayRef<ShardLayout> resultTargets,
              llvm::ArrayRef<llvm::ArrayRef<int64_t>> resultShapes,
              const AssignmentOptions &options);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_FACTORASSIGNMENT_H
