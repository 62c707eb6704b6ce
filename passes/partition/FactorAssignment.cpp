//===- FactorAssignment.cpp - which mesh axes shard which factor ----------===//

#include "passes/partition/FactorAssignment.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using xspmd::xla::FactorKind;
using xspmd::xla::OpShardingRule;
using xspmd::xla::TensorFactors;

namespace xspmd::partition {
namespace {

class Assigner {
public:
  Assigner(const OpShardingRule &rule, const MeshModel &mesh,
           ArrayRef<int64_t> blocked)
      : rule(rule), mesh(mesh), factorAxes(rule.getNumFactors()),
        assigned(rule.getNumFactors(), false),
        inCompound(rule.getNumFactors(), false), axisUsed(mesh.rank(), false) {
    for (int64_t f : blocked)
      assigned[f] = true;
    for (int64_t t = 0, e = rule.getNumTensors(); t < e; ++t)
      for (const auto &dim : rule.getTensor(t))
        if (dim.size() > 1)
          for (int64_t f : dim)
            inCompound[f] = true;
  }

  /// Offers the axes of each dimension of a tensor to the dimension's
  /// factors (major to minor), accepting what is consistent with earlier
  /// offers. `kinds` limits which factor kinds may take axes.
  void offer(const TensorFactors &factors, const ShardLayout &layout,
             ArrayRef<int64_t> shape, ArrayRef<FactorKind> kinds) {
    for (auto [d, dimFactors] : llvm::enumerate(factors)) {
      ArrayRef<int> axes = layout.dimAxes[d];
      size_t next = 0;
      for (int64_t f : dimFactors) {
        int64_t size = rule.factorSizes[f], taken = 1;
        SmallVector<int, 2> mine;
        while (next < axes.size() && taken < size) {
          int64_t axisSize = mesh.axisSizes[axes[next]];
          bool divides = size % (taken * axisSize) == 0;
          // A factor alone in every dimension holding it may be split
          // unevenly (the partitioner pads); inside a compound dimension
          // padding would interleave with data.
          if (!divides && (inCompound[f] || dimFactors.size() > 1))
            break;
          mine.push_back(axes[next++]);
          taken *= axisSize;
        }
        accept(f, mine, kinds);
        if (taken < size || next == axes.size())
          break; // minor factors cannot take axes past a partial factor
      }
    }
  }

  /// Assigns no more axes to factors that would make a compound dimension
  /// strided (a minor factor sharded while a major one is not fully).
  void enforceCompoundPrefixes() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (int64_t t = 0, e = rule.getNumTensors(); t < e; ++t)
        for (const auto &dim : rule.getTensor(t)) {
          bool open = true;
          for (int64_t f : dim) {
            if (!open && !factorAxes[f].empty()) {
              release(f);
              changed = true;
            }
            if (shardsOf(f) < rule.factorSizes[f])
              open = false;
          }
        }
    }
  }

  ShardLayout layoutOf(const TensorFactors &factors,
                       ArrayRef<int64_t> shape) const {
    ShardLayout layout;
    for (auto [d, dimFactors] : llvm::enumerate(factors)) {
      auto &axes = layout.dimAxes.emplace_back();
      for (int64_t f : dimFactors)
        llvm::append_range(axes, factorAxes[f]);
      int64_t shards = 1;
      for (int a : axes)
        shards *= mesh.axisSizes[a];
      layout.paddedSize.push_back(paddedDimSize(shape[d], shards));
    }
    return layout;
  }

  /// No further offer may change the factors of `factors`.
  void lock(const TensorFactors &factors) {
    for (const auto &dimFactors : factors)
      for (int64_t f : dimFactors)
        assigned[f] = true;
  }

  bool isAxisUsed(int a) const { return axisUsed[a]; }
  SmallVector<SmallVector<int, 2>> takeFactorAxes() { return factorAxes; }
  const SmallVector<SmallVector<int, 2>> &getFactorAxes() const {
    return factorAxes;
  }

private:
  void accept(int64_t f, ArrayRef<int> axes, ArrayRef<FactorKind> kinds) {
    if (assigned[f] || axes.empty() ||
        !llvm::is_contained(kinds, rule.factorKinds[f]))
      return;
    // Axes before the first one another factor holds still split this one
    // (propagation truncates the same way: prop::detail, recordCost).
    axes = axes.take_while([&](int a) { return !axisUsed[a]; });
    if (axes.empty())
      return;
    assigned[f] = true;
    factorAxes[f].assign(axes.begin(), axes.end());
    for (int a : axes)
      axisUsed[a] = true;
  }

  void release(int64_t f) {
    for (int a : factorAxes[f])
      axisUsed[a] = false;
    factorAxes[f].clear();
  }

  int64_t shardsOf(int64_t f) const {
    int64_t n = 1;
    for (int a : factorAxes[f])
      n *= mesh.axisSizes[a];
    return n;
  }

  const OpShardingRule &rule;
  const MeshModel &mesh;
  SmallVector<SmallVector<int, 2>> factorAxes;
  SmallVector<bool> assigned, inCompound, axisUsed;
};

} // namespace

FactorAssignment assignFactors(const OpShardingRule &rule,
                               const MeshModel &mesh,
                               ArrayRef<ShardLayout> operandLayouts,
                               ArrayRef<ArrayRef<int64_t>> operandShapes,
                               ArrayRef<ShardLayout> resultTargets,
                               ArrayRef<ArrayRef<int64_t>> resultShapes,
                               const AssignmentOptions &options) {
  PartialPolicy partialPolicy = options.partialPolicy;
  Assigner assigner(rule, mesh, options.blockedFactors);
  SmallVector<FactorKind> resultKinds{FactorKind::passThrough};
  SmallVector<FactorKind> operandKinds{FactorKind::passThrough};
  if (options.operandsSplitReductions)
    operandKinds.push_back(FactorKind::reduction);
  if (options.shardPermutationFactors) {
    resultKinds.push_back(FactorKind::permutation);
    operandKinds.push_back(FactorKind::permutation);
  }
  // Tensors offer their splits in order (results first by default): a
  // factor keeps the first split offered to it. An operand already split
  // along a reduction factor keeps that split, which is how a sharded
  // contracting dimension becomes a partial sum.
  int64_t numOperands = rule.operands.size();
  SmallVector<int64_t> order = options.offerOrder;
  if (order.empty()) {
    for (int64_t r = 0, e = rule.results.size(); r < e; ++r)
      order.push_back(numOperands + r);
    for (int64_t o = 0; o < numOperands; ++o)
      order.push_back(o);
  }
  for (int64_t t : order) {
    if (t < numOperands)
      assigner.offer(rule.operands[t], operandLayouts[t], operandShapes[t],
                     operandKinds);
    else
      assigner.offer(rule.results[t - numOperands],
                     resultTargets[t - numOperands],
                     resultShapes[t - numOperands], resultKinds);
    if (options.resultsDecideTheirFactors && t >= numOperands)
      assigner.lock(rule.results[t - numOperands]);
  }
  assigner.enforceCompoundPrefixes();

  FactorAssignment result;
  for (auto [o, factors] : llvm::enumerate(rule.operands))
    result.operands.push_back(assigner.layoutOf(factors, operandShapes[o]));
  SmallVector<int, 2> reductionAxes;
  for (int64_t f = 0, e = rule.getNumFactors(); f < e; ++f)
    if (rule.factorKinds[f] == FactorKind::reduction)
      llvm::append_range(reductionAxes, assigner.getFactorAxes()[f]);

  // A pending sum the results want and a linear op can carry through.
  SmallVector<int, 2> carried;
  bool sumReduction =
      rule.reductionKind == xla::ReductionKind::sum || reductionAxes.empty();
  if (partialPolicy != PartialPolicy::none && sumReduction &&
      !resultTargets.empty() &&
      resultTargets.front().partialKind == xla::ReductionKind::sum) {
    for (int a : resultTargets.front().partialAxes) {
      if (assigner.isAxisUsed(a))
        continue;
      bool held = llvm::any_of(operandLayouts, [&](const ShardLayout &l) {
        return l.partialKind == xla::ReductionKind::sum &&
               llvm::is_contained(l.partialAxes, a);
      });
      if (held)
        carried.push_back(a);
    }
  }
  if (!carried.empty()) {
    int64_t carrier = -1;
    for (auto [o, layout] : llvm::enumerate(result.operands)) {
      bool isCarrier = partialPolicy == PartialPolicy::allOperands;
      if (partialPolicy == PartialPolicy::oneOperand && carrier < 0 &&
          llvm::any_of(operandLayouts[o].partialAxes,
                       [&](int a) { return llvm::is_contained(carried, a); })) {
        carrier = o;
        isCarrier = true;
      }
      if (isCarrier) {
        layout.partialAxes = carried;
        layout.partialKind = xla::ReductionKind::sum;
      }
    }
  }

  for (auto [r, factors] : llvm::enumerate(rule.results)) {
    ShardLayout layout = assigner.layoutOf(factors, resultShapes[r]);
    layout.partialAxes = reductionAxes;
    llvm::append_range(layout.partialAxes, carried);
    llvm::sort(layout.partialAxes);
    layout.partialKind =
        reductionAxes.empty() ? xla::ReductionKind::sum : rule.reductionKind;
    result.results.push_back(std::move(layout));
  }
  result.factorAxes = assigner.takeFactorAxes();
  return result;
}

} // namespace xspmd::partition
