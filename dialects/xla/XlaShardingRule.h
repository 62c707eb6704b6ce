//===- XlaShardingRule.h - op sharding rules as data ------------*- C++ -*-===//
//
// An op's sharding rule says which of its operand and result dimensions can
// be sharded together. It is expressed with *factors*, as an einsum is with
// letters: every dimension is the product of an ordered list of factors
// (major to minor), and two dimensions that contain the same factor are
// split the same way when that factor is sharded over some mesh axes.
//
//   matmul [8,16] x [16,4]    ([i, j], [j, k])->([i, k]) {i=8, j=16, k=4}
//                             reduction={j}
//   reshape [8,4] -> [2,16]   ([ij, k])->([i, jk]) {i=2, j=4, k=4}
//   broadcast [8,1] -> [8,4]  ([i, 1])->([i, j]) {i=8, j=4}
//
// A reshape dimension made of several factors is a *compound* dimension: the
// mesh axes sharding it are laid over its factors major to minor.
//
// This one table drives sharding propagation (passes/propagation/) and the
// SPMD partitioner. Every computational op of the xla dialect provides its
// rule through ShardingRuleOpInterface; an `xla.sharding_rule` attribute on
// any op (of any dialect) overrides it.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLASHARDINGRULE_H
#define XSPMD_DIALECTS_XLA_XLASHARDINGRULE_H

#include "dialects/xla/XlaDialect.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace xspmd::xla {

/// Name of the discardable attribute holding an OpShardingRuleAttr.
inline constexpr llvm::StringLiteral kShardingRuleAttrName =
    "xla.sharding_rule";

/// What sharding a factor means for the partitioner.
enum class FactorKind : uint8_t {
  /// Every dimension holding the factor is split the same way; no data moves.
  passThrough,
  /// Summed (or max'ed, ...) over: operands may be split along it, the
  /// result is then a pending reduction (`partial`) across those axes.
  /// Appears in operands only.
  reduction,
  /// Must not be sharded (e.g. the dimension softmax normalises over): a
  /// sharded operand is gathered first. Propagation never shards it.
  needReplication,
  /// May be sharded, but data crosses shard boundaries (windows, pads,
  /// slices, concatenation): the partitioner exchanges halos or permutes.
  /// Its dimensions may differ in size; the factor's size is the result's.
  permutation,
};

llvm::StringRef stringifyFactorKind(FactorKind kind);

/// Factors of one dimension, major to minor (empty for a size-1 dimension).
using DimFactors = llvm::SmallVector<int64_t, 2>;
/// Factors of every dimension of one tensor.
using TensorFactors = llvm::SmallVector<DimFactors, 4>;

/// An op's sharding rule (see the file comment).
struct OpShardingRule {
  /// Size and kind of each factor, indexed by factor.
  llvm::SmallVector<int64_t> factorSizes;
  llvm::SmallVector<FactorKind> factorKinds;
  /// The reduction a sharded reduction factor leaves pending on the results.
  ReductionKind reductionKind = ReductionKind::sum;
  /// Per operand and per result: the factors of each dimension.
  llvm::SmallVector<TensorFactors> operands;
  llvm::SmallVector<TensorFactors> results;

  int64_t getNumFactors() const { return factorSizes.size(); }
  int64_t getNumTensors() const { return operands.size() + results.size(); }
  /// Tensor `t` in operands-then-results order.
  const TensorFactors &getTensor(int64_t t) const {
    return t < static_cast<int64_t>(operands.size())
               ? operands[t]
               : results[t - operands.size()];
  }
  bool hasKind(FactorKind kind) const;
  /// True when no factor needs more than pass-through handling.
  bool isPassThroughOnly() const {
    return !hasKind(FactorKind::reduction) &&
           !hasKind(FactorKind::needReplication) &&
           !hasKind(FactorKind::permutation);
  }

  /// The text form, e.g. `([i, j], [j, k])->([i, k]) {i=8, j=16, k=4}
  /// reduction={j}` (what `#xla.op_sharding_rule<...>` holds).
  void print(llvm::raw_ostream &os) const;
  std::string str() const;

  bool operator==(const OpShardingRule &other) const;
};

/// Name of factor `f` in the text form: i, j, ..., z, then z_1, z_2, ...
std::string factorName(int64_t f);

/// Builds a rule for an op with the given operand and result shapes (one
/// entry per operand/result; non-tensor values count as rank 0). Factors of
/// size 1 are dropped: a dimension of size 1 has no factor.
class OpShardingRuleBuilder {
public:
  OpShardingRuleBuilder(llvm::ArrayRef<llvm::ArrayRef<int64_t>> operandShapes,
                        llvm::ArrayRef<llvm::ArrayRef<int64_t>> resultShapes);
  /// Shapes of `op`'s operands and results.
  explicit OpShardingRuleBuilder(mlir::Operation *op);

  /// A new factor of `size`, mapped to nothing yet; -1 when `size` is 1.
  int64_t addFactor(int64_t size, FactorKind kind = FactorKind::passThrough);
  /// A new factor appended (as the most minor so far) to dimension
  /// `operandDims[i]` of each operand i and `resultDims[j]` of each result j
  /// (-1 skips that tensor). Returns the factor, or -1 when `size` is 1.
  int64_t addFactor(llvm::ArrayRef<int64_t> operandDims,
                    llvm::ArrayRef<int64_t> resultDims, int64_t size,
                    FactorKind kind = FactorKind::passThrough);
  /// A permutation factor of `size` shared like addFactor's: the elements of
  /// the dimensions move between shards (slice, pad, window). When `size` is
  /// 1 there is no factor, so each operand dimension of a larger size gets a
  /// need-replication factor of its own: the rule still accounts for every
  /// dimension's size.
  int64_t addWindowedFactor(llvm::ArrayRef<int64_t> operandDims,
                            llvm::ArrayRef<int64_t> resultDims, int64_t size);
  /// Appends existing factor `f` to a dimension (no-op when `f` is -1).
  void mapOperand(int64_t operand, int64_t dim, int64_t f);
  void mapResult(int64_t result, int64_t dim, int64_t f);
  void setReductionKind(ReductionKind kind) { rule.reductionKind = kind; }

  /// Each dimension of every operand and result shares one factor with the
  /// same dimension of the others (all must have the same shape).
  OpShardingRuleBuilder &
  addPointwise(FactorKind kind = FactorKind::passThrough);

  int64_t getNumOperands() const { return rule.operands.size(); }
  int64_t getNumResults() const { return rule.results.size(); }
  int64_t getOperandDimSize(int64_t operand, int64_t dim) const {
    return operandShapes[operand][dim];
  }
  int64_t getResultDimSize(int64_t result, int64_t dim) const {
    return resultShapes[result][dim];
  }

  /// The rule built; the builder is consumed (its rule is moved out).
  OpShardingRule build() { return std::move(rule); }

private:
  llvm::SmallVector<llvm::SmallVector<int64_t>> operandShapes, resultShapes;
  OpShardingRule rule;
};

/// Rule of a reshape from `inShape` to `outShape` with compound factors: the
/// coarsest factorisation such that each dimension of either shape is a
/// product of consecutive factors. Where the shapes cannot be factorised
/// together (e.g. [3,4] -> [2,6]), each side gets its own need-replication
/// factors until the running products meet again. Shapes without elements
/// share nothing.
OpShardingRule reshapeRule(llvm::ArrayRef<int64_t> inShape,
                           llvm::ArrayRef<int64_t> outShape);

/// The sharding rule of `op`: its `xla.sharding_rule` attribute if present,
/// else what its ShardingRuleOpInterface gives, else nothing.
std::optional<OpShardingRule> getShardingRule(mlir::Operation *op);

/// Checks `rule` against `op`'s operand/result count and shapes: ranks,
/// sizes (the product of a dimension's factors is its size, except for a
/// dimension made of one permutation factor), reduction factors only in
/// operands. Emits through `emitError` and fails on the first problem.
mlir::LogicalResult
verifyShardingRule(const OpShardingRule &rule, mlir::Operation *op,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Conversions between the attribute and the C++ form.
OpShardingRule ruleFromAttr(OpShardingRuleAttr attr);
OpShardingRuleAttr ruleToAttr(mlir::MLIRContext *ctx,
                              const OpShardingRule &rule);

/// Attaches ShardingRuleOpInterface to every computational op of the xla
/// dialect (called when the dialect is initialised).
void registerShardingRuleModels(mlir::MLIRContext *ctx);

} // namespace xspmd::xla

#include "dialects/xla/XlaShardingRuleInterface.h.inc"

#endif // XSPMD_DIALECTS_XLA_XLASHARDINGRULE_H
