//===- OpEvaluator.h - pricing one op's factor choices ----------*- C++ -*-===//
//
// What propagation (OpPropagation.cpp) and the pricing of the final plan
// (PlanCost.cpp) share: the candidates and choices of an op's factors and
// the Evaluator that prices what each tensor must be resharded from and to
// if the factors are sharded as proposed. Internal to passes/propagation.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PROPAGATION_OPEVALUATOR_H
#define XSPMD_PASSES_PROPAGATION_OPEVALUATOR_H

#include "passes/propagation/PropagationState.h"

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaSubAxes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>

namespace xspmd::prop::detail {

// The names OpPropagation.cpp and PlanCost.cpp use unqualified, for the
// inline code below.
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using mlir::ArrayRef;
using mlir::FlatSymbolRefAttr;
using mlir::SmallVector;
using mlir::StringAttr;
using xla::DimFactors;
using xla::FactorKind;
using xla::MarkShardingOp;
using xla::OpShardingRule;
using xla::ReduceKind;
using xla::ReduceOp;
using xla::ReductionKind;
namespace func = mlir::func;

/// Axes a tensor's dimension proposes for a factor.
struct Candidate {
  AxisList axes;
  int64_t priority;
  int32_t tensor;
  int32_t dim;
};

/// The axes chosen for each factor, with where they come from.
struct Choice {
  SmallVector<AxisList> axes;
  SmallVector<int64_t> priority;
  /// Candidate (tensor, dim) the axes were taken from; -1 if none.
  SmallVector<std::pair<int32_t, int32_t>> source;
};

inline AxisList commonPrefix(ArrayRef<Candidate> candidates) {
  AxisList prefix = candidates.front().axes;
  for (const Candidate &c : candidates.drop_front()) {
    size_t n = 0;
    while (n < prefix.size() && n < c.axes.size() && prefix[n] == c.axes[n])
      ++n;
    prefix.resize(n);
  }
  return prefix;
}

/// Truncates `axes` before `axis` (if present).
/// Drops `axis`, anything sharing devices with it, and what follows.
inline void truncateAt(AxisList &axes, StringAttr axis) {
  auto it = llvm::find_if(axes, [&](StringAttr other) {
    return xla::axesOverlap(axis.getValue(), other.getValue());
  });
  axes.erase(it, axes.end());
}

inline bool overlapsAny(ArrayRef<StringAttr> axes, StringAttr axis) {
  return llvm::any_of(axes, [&](StringAttr other) {
    return xla::axesOverlap(axis.getValue(), other.getValue());
  });
}

/// A reshard's price, or nothing when the planner cannot express it.
using ReshardPrice = std::function<std::optional<double>(
    const AxisSharding &, const AxisSharding &, const ValueState &)>;

/// Whether `record` is a sum or mean reduce, through which an operand's
/// pending sum passes to the result.
inline bool passesPendingSum(const OpRecord &record) {
  auto reduce = dyn_cast<ReduceOp>(record.op);
  return reduce && record.carried < 0 && record.numOperands == 1 &&
         (reduce.getKind() == ReduceKind::sum ||
          reduce.getKind() == ReduceKind::mean);
}

/// Evaluates configurations of one op: what each tensor must be resharded
/// from and to if the factors are sharded as proposed.
class Evaluator {
public:
  Evaluator(const OpRecord &record, ArrayRef<ValueState> states,
            FlatSymbolRefAttr meshRef, const MeshAxes &mesh)
      : record(record), states(states), meshRef(meshRef), mesh(mesh) {}

  /// Prices reshards with `price` (the partitioner's planner); cost() needs
  /// it.
  void setPrice(ReshardPrice p) { price = std::move(p); }
  /// Names the layout an operand is resharded to, for reuse across ops
  /// (default: the sharding's axes).
  void setKey(
      std::function<std::string(const AxisSharding &, const ValueState &)> k) {
    layoutKey = std::move(k);
  }

  /// Target sharding of tensor `k` when factors carry `factorAxes`.
  AxisSharding target(int32_t k, ArrayRef<AxisList> factorAxes) const {
    const OpShardingRule &rule = *record.rule;
    AxisSharding s;
    for (const DimFactors &dim : rule.getTensor(k))
      s.dims.push_back(composeDim(dim, factorAxes, rule.factorSizes, mesh));
    return s;
  }

  /// Axes of the reduction factors, in factor order.
  AxisList reductionAxes(ArrayRef<AxisList> factorAxes) const {
    AxisList axes;
    for (auto [f, kind] : llvm::enumerate(record.rule->factorKinds))
      if (kind == FactorKind::reduction)
        llvm::append_range(axes, factorAxes[f]);
    return axes;
  }

  /// Weighted bytes the partitioner moves for this op. Unless
  /// `final`, an open dimension may still adopt the op's choice and a
  /// result's own pending axes are not counted (propagation is deciding).
  double cost(ArrayRef<AxisList> factorAxes, bool final = false,
              ReshardsDone *done = nullptr) const {
    if (final)
      return finalCost(factorAxes, done);
    double total = 0;
    AxisList pending = reductionAxes(factorAxes);
    for (int32_t k = 0, e = record.tensors.size(); k < e; ++k) {
      const ValueState &state = states[record.tensors[k]];
      if (state.mesh && state.mesh != meshRef)
        continue;
      AxisSharding want = target(k, factorAxes);
      if (k >= record.numOperands)
        want.partial = pending;
      dropRepeatedAxes(want);
      // What the tensor is, where it can simply adopt the op's choice (as
      // applying it would: open dimensions grow by axes it does not hold).
      AxisSharding have = state.toAxisSharding();
      AxisList used = have.partial;
      for (const AxisList &dim : have.dims)
        llvm::append_range(used, dim);
      for (auto [d, dim] : llvm::enumerate(state.dims)) {
        if (!dim.open || !isPrefix(dim.axes, want.dims[d]))
          continue;
        for (StringAttr axis :
             ArrayRef<StringAttr>(want.dims[d]).drop_front(dim.axes.size())) {
          if (overlapsAny(used, axis))
            break;
          used.push_back(axis);
          have.dims[d].push_back(axis);
        }
      }
      if (k < record.numOperands) {
        total += priceOf(have, want, state);
        continue;
      }
      // The pending result is reduced into what the value is: a
      // reduce-scatter where it already splits a dimension by a pending
      // axis, an all-reduce of the others.
      if (!state.user)
        have.partial.clear();
      total += priceOf(want, have, state);
    }
    return total;
  }

private:
  /// Keeps the first use of each axis, as applying a choice to a tensor
  /// does: a trial may still give an axis to two factors (a later conflict
  /// decides), but a tensor's dimension or pending set takes it only once.
  static void dropRepeatedAxes(AxisSharding &s) {
    AxisList used;
    for (AxisList &dim : s.dims) {
      auto repeated = llvm::find_if(
          dim, [&](StringAttr axis) { return overlapsAny(used, axis); });
      dim.erase(repeated, dim.end());
      llvm::append_range(used, dim);
    }
    llvm::erase_if(s.partial, [&](StringAttr axis) {
      bool repeated = overlapsAny(used, axis);
      used.push_back(axis);
      return repeated;
    });
  }

  /// The cost once every tensor has its final sharding: operands are
  /// resharded to what the factors need, the local result (pending on the
  /// reduction factors' axes) to what the value is; a value that stays
  /// pending is reduced where it is used.
  double finalCost(ArrayRef<AxisList> factorAxes, ReshardsDone *done) const {
    double total = 0;
    AxisList pending = reductionAxes(factorAxes);
    // Pending axes of the operand a sum reduce passes to its result: the
    // operand keeps them, the local result has them.
    AxisList passed;
    if (passesPendingSum(record)) {
      const ValueState &in = states[record.tensors[0]];
      const ValueState &out = states[record.tensors[1]];
      if (in.partialKind == ReductionKind::sum)
        for (StringAttr axis : in.partial)
          if (llvm::is_contained(out.partial, axis) &&
              !llvm::is_contained(pending, axis))
            passed.push_back(axis);
    }
    // A returned or marked value becomes what the result or mark says,
    // pending axes included (a user-written partial result keeps them).
    if (isa<func::ReturnOp, MarkShardingOp>(record.op) &&
        record.tensors.size() == 2)
      for (StringAttr axis : states[record.tensors[1]].partial)
        if (!llvm::is_contained(passed, axis))
          passed.push_back(axis);
    for (int32_t k = 0, e = record.tensors.size(); k < e; ++k) {
      const ValueState &state = states[record.tensors[k]];
      // A value no sharding reached is replicated (the partitioner treats
      // it so).
      if (state.mesh && state.mesh != meshRef)
        continue;
      AxisSharding want = target(k, factorAxes);
      AxisSharding have = state.toAxisSharding();
      if (k < record.numOperands) {
        want.partial = passed;
        // The partitioner reshards a value to a layout once and reuses it
        // (an FSDP weight gathered for the forward serves the backward).
        if (done && !(have == want) &&
            !done->insert({record.tensors[k],
                           layoutKey ? layoutKey(want, state) : key(want)})
                 .second)
          continue;
        total += priceOf(have, want, state);
        continue;
      }
      want.partial = pending;
      llvm::append_range(want.partial, passed);
      total += priceOf(want, have, state);
    }
    return total;
  }

  double priceOf(const AxisSharding &from, const AxisSharding &to,
                 const ValueState &state) const {
    if (from == to)
      return 0;
    if (std::optional<double> cost = price(from, to, state))
      return *cost;
    // A value without a static shape has no size to price; any other
    // reshard the planner cannot express (incompatible sub-axes) the
    // partitioner cannot carry out either: never the cheaper choice.
    if (!state.type || !state.type.hasStaticShape())
      return 0;
    return std::numeric_limits<double>::infinity();
  }

  static std::string key(const AxisSharding &s) {
    std::string k;
    for (const AxisList &dim : s.dims) {
      for (StringAttr a : dim)
        k += a.getValue().str() + ",";
      k += ";";
    }
    for (StringAttr a : s.partial)
      k += a.getValue().str() + ",";
    return k;
  }

  const OpRecord &record;
  ArrayRef<ValueState> states;
  FlatSymbolRefAttr meshRef;
  const MeshAxes &mesh;
  ReshardPrice price;
  std::function<std::string(const AxisSharding &, const ValueState &)>
      layoutKey;
};

} // namespace xspmd::prop::detail

#endif // XSPMD_PASSES_PROPAGATION_OPEVALUATOR_H
