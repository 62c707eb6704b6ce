//===- OpPropagation.cpp - propagate through one op in factor space -------===//
//
// For one op: pick the mesh, project every tensor's dimension axes onto the
// rule's factors (candidates), choose the axes of each factor, make sure no
// axis serves two factors, and extend each tensor (and mark results
// partial) with what was chosen.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaSubAxes.h"
#include "passes/propagation/PropagationState.h"

#include "passes/partition/OpPlan.h"
#include "passes/partition/ReshardPlanner.h"
#include "passes/partition/Reverse.h"
#include "passes/partition/WindowedOps.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::prop::detail {
namespace {

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

AxisList commonPrefix(ArrayRef<Candidate> candidates) {
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
void truncateAt(AxisList &axes, StringAttr axis) {
  auto it = llvm::find_if(axes, [&](StringAttr other) {
    return xla::axesOverlap(axis.getValue(), other.getValue());
  });
  axes.erase(it, axes.end());
}

bool overlapsAny(ArrayRef<StringAttr> axes, StringAttr axis) {
  return llvm::any_of(axes, [&](StringAttr other) {
    return xla::axesOverlap(axis.getValue(), other.getValue());
  });
}

/// A reshard's price, or nothing to use the closed-form estimate.
using ReshardPrice = std::function<std::optional<double>(
    const AxisSharding &, const AxisSharding &, const ValueState &)>;

/// Whether `record` is a sum or mean reduce, through which an operand's
/// pending sum passes to the result.
bool passesPendingSum(const OpRecord &record) {
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
            FlatSymbolRefAttr meshRef, const MeshAxes &mesh,
            const CostModel &model)
      : record(record), states(states), meshRef(meshRef), mesh(mesh),
        model(model) {}

  /// Prices the final reshards with `price` (the partitioner's planner)
  /// instead of the closed-form estimate.
  void setPrice(ReshardPrice p) { price = std::move(p); }

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

  /// Estimated weighted bytes the partitioner moves for this op. Unless
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
      // What the tensor is, where it can simply adopt the op's choice.
      AxisSharding have = state.toAxisSharding();
      for (auto [d, dim] : llvm::enumerate(state.dims))
        if (dim.open && isPrefix(dim.axes, want.dims[d]))
          have.dims[d] = want.dims[d];
      if (k < record.numOperands) {
        total += reshardCost(have, want, state.bytes, mesh, model);
        continue;
      }
      if (state.user) {
        want.partial = pending;
        total += reshardCost(want, have, state.bytes, mesh, model);
        continue;
      }
      // The pending result is reduced into what the value is: a
      // reduce-scatter where it already splits a dimension by a pending
      // axis, an all-reduce of the others.
      have.partial.clear();
      want.partial = pending;
      total += reshardCost(want, have, state.bytes, mesh, model);
    }
    return total;
  }

private:
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
            !done->insert({record.tensors[k], key(want)}).second)
          continue;
        total += finalPrice(have, want, state);
        continue;
      }
      want.partial = pending;
      llvm::append_range(want.partial, passed);
      total += finalPrice(want, have, state);
    }
    return total;
  }

  double finalPrice(const AxisSharding &from, const AxisSharding &to,
                    const ValueState &state) const {
    if (from == to)
      return 0;
    if (price)
      if (std::optional<double> cost = price(from, to, state))
        return *cost;
    return reshardCost(from, to, state.bytes, mesh, model);
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
  const CostModel &model;
  ReshardPrice price;
};

} // namespace

void FunctionPropagation::processOp(int32_t recordIndex, bool aggressive,
                                    int64_t round,
                                    SmallVectorImpl<int32_t> &changed) {
  const OpRecord &record = records[recordIndex];
  const OpShardingRule &rule = *record.rule;
  int32_t numTensors = record.tensors.size();
  int64_t numFactors = rule.getNumFactors();
  if (numFactors == 0)
    return;

  // The op's mesh: that of the tensor with the strongest active sharding.
  FlatSymbolRefAttr meshRef;
  int64_t best = kNoPriority;
  for (int32_t t : record.tensors) {
    const ValueState &state = states[t];
    if (!state.mesh)
      continue;
    int64_t strongest = kNoPriority;
    for (const DimState &dim : state.dims)
      if (!dim.axes.empty())
        strongest = std::min(strongest, dim.priority);
    if (strongest > round)
      continue;
    // A value on one device (a maximal mesh) has no axes to offer: it never
    // decides the op's mesh, so its sharding does not spread.
    if (strongest == kNoPriority && state.partial.empty() &&
        isMaximalMesh(state.mesh))
      continue;
    if (!meshRef || strongest < best) {
      meshRef = state.mesh;
      best = strongest;
    }
  }
  if (!meshRef)
    return;
  const MeshAxes *mesh = getMeshAxes(meshRef);
  if (!mesh)
    return;

  // Candidates: each active dimension's axes projected onto its factors.
  SmallVector<SmallVector<Candidate, 2>> candidates(numFactors);
  SmallVector<AxisList> scratch(numFactors);
  for (int32_t k = 0; k < numTensors; ++k) {
    const ValueState &state = states[record.tensors[k]];
    if (state.mesh != meshRef)
      continue;
    const TensorFactors &factors = rule.getTensor(k);
    for (auto [d, dim] : llvm::enumerate(state.dims)) {
      if (dim.axes.empty() || dim.priority > round)
        continue;
      for (int64_t f : factors[d])
        scratch[f].clear();
      projectDim(dim.axes, factors[d], rule.factorSizes, *mesh, scratch);
      for (int64_t f : factors[d])
        if (!scratch[f].empty())
          candidates[f].push_back(
              {scratch[f], dim.priority, k, static_cast<int32_t>(d)});
    }
  }

  // How many tensors of the op (on this mesh) hold each factor.
  SmallVector<int32_t> holders(numFactors, 0);
  for (int32_t k = 0; k < numTensors; ++k) {
    const ValueState &state = states[record.tensors[k]];
    if (state.mesh && state.mesh != meshRef)
      continue;
    for (const DimFactors &dim : rule.getTensor(k))
      for (int64_t f : dim)
        ++holders[f];
  }

  // Per factor: the axes every tensor can take without a decision; the
  // rest is resolved below (aggressive rounds only).
  //   - pass-through/permutation: the longest candidate if all candidates
  //     are prefixes of it, else their common prefix (a conflict);
  //   - reduction: only what every tensor holding the factor already has.
  //     Sharding a reduction factor makes the result partial, which costs
  //     an all-reduce; whether that beats gathering the operands is a
  //     decision (an FSDP weight sharded along its contracting dimension
  //     must not drag the activations along).
  Choice choice;
  choice.axes.resize(numFactors);
  choice.priority.assign(numFactors, kNoPriority);
  choice.source.assign(numFactors, {-1, -1});
  Evaluator evaluator(record, states, meshRef, *mesh, options.costModel);
  SmallVector<int64_t> undecided;
  for (int64_t f = 0; f < numFactors; ++f) {
    ArrayRef<Candidate> cands = candidates[f];
    if (cands.empty() || rule.factorKinds[f] == FactorKind::needReplication)
      continue;
    bool reduction = rule.factorKinds[f] == FactorKind::reduction;
    const Candidate *longest = &cands.front();
    for (const Candidate &c : cands)
      if (c.axes.size() > longest->axes.size())
        longest = &c;
    bool agree = llvm::all_of(cands, [&](const Candidate &c) {
      return isPrefix(c.axes, longest->axes);
    });
    int32_t settled = llvm::count_if(
        cands, [&](const Candidate &c) { return c.axes == longest->axes; });
    // An axis another factor also proposes is a conflict even when this
    // factor's candidates agree: settling it here would decide it without
    // pricing (the token split of a sequence-parallel block reaching a
    // row-parallel matmul that could rather keep its contracting split).
    bool contested =
        !aggressive && llvm::any_of(longest->axes, [&](StringAttr axis) {
          for (int64_t g = 0; g < numFactors; ++g)
            if (g != f && rule.factorKinds[g] != FactorKind::needReplication &&
                llvm::any_of(candidates[g], [&](const Candidate &c) {
                  return llvm::is_contained(c.axes, axis);
                }))
              return true;
          return false;
        });
    if (contested)
      continue;
    if (agree && (!reduction || settled == holders[f])) {
      choice.axes[f] = longest->axes;
      choice.source[f] = {longest->tensor, longest->dim};
      for (const Candidate &c : cands)
        if (c.axes == longest->axes)
          choice.priority[f] = std::min(choice.priority[f], c.priority);
      continue;
    }
    if (!reduction || static_cast<int32_t>(cands.size()) == holders[f])
      choice.axes[f] = commonPrefix(cands);
    choice.source[f] = {cands.front().tensor, cands.front().dim};
    for (const Candidate &c : cands)
      choice.priority[f] = std::min(choice.priority[f], c.priority);
    if (aggressive)
      undecided.push_back(f);
  }

  // Aggressive: each undecided factor takes the strongest, then cheapest,
  // maximal candidate; a reduction factor may also stay unsharded.
  for (int64_t f : undecided) {
    ArrayRef<Candidate> cands = candidates[f];
    ConflictRecord log{
        recordIndex, StringAttr(), static_cast<int32_t>(f), {}, 0};
    auto addOption = [&](const AxisList &axes, int32_t tensor) {
      ConflictOption option{axes, static_cast<int32_t>(f), tensor, kNoPriority,
                            0};
      for (const Candidate &o : cands)
        if (!axes.empty() && isPrefix(o.axes, axes))
          option.priority = std::min(option.priority, o.priority);
      // The configuration where `f` takes `axes` from any other factor.
      SmallVector<AxisList> trial(choice.axes);
      for (AxisList &other : trial)
        for (StringAttr axis : axes)
          truncateAt(other, axis);
      trial[f] = axes;
      option.cost = evaluator.cost(trial);
      log.options.push_back(option);
    };
    for (const Candidate &c : cands) {
      bool dominated = llvm::any_of(cands, [&](const Candidate &o) {
        return o.axes.size() > c.axes.size() && isPrefix(c.axes, o.axes);
      });
      bool seen = llvm::any_of(log.options, [&](const ConflictOption &o) {
        return o.axes == c.axes;
      });
      if (!dominated && !seen)
        addOption(c.axes, c.tensor);
    }
    if (rule.factorKinds[f] == FactorKind::reduction)
      addOption({}, -1);
    for (auto [i, o] : llvm::enumerate(log.options)) {
      const ConflictOption &cur = log.options[log.chosen];
      if (o.priority < cur.priority ||
          (o.priority == cur.priority && o.cost < cur.cost))
        log.chosen = i;
    }
    decide(log, [&](const ConflictOption &o, const ForcedChoice &c) {
      return o.axes == c.axes;
    });
    ++numDecisions;
    const ConflictOption &won = log.options[log.chosen];
    choice.axes[f] = won.axes;
    choice.priority[f] = won.priority;
    for (const Candidate &c : cands)
      if (!won.axes.empty() && c.axes == won.axes) {
        choice.source[f] = {c.tensor, c.dim};
        break;
      }
    if (options.explain)
      logConflict(std::move(log));
  }

  // No axis may shard two factors. Basic: drop it from all of them.
  // Aggressive: keep it on the strongest, then cheapest, factor.
  while (true) {
    StringAttr dup;
    SmallVector<int64_t> users;
    for (int64_t f = 0; f < numFactors && !dup; ++f)
      for (StringAttr axis : choice.axes[f]) {
        users.clear();
        for (int64_t g = 0; g < numFactors; ++g)
          if (overlapsAny(choice.axes[g], axis))
            users.push_back(g);
        if (users.size() > 1) {
          dup = axis;
          break;
        }
      }
    if (!dup)
      break;
    if (!aggressive) {
      for (int64_t g : users)
        truncateAt(choice.axes[g], dup);
      continue;
    }
    ConflictRecord log{recordIndex, dup, -1, {}, 0};
    for (int64_t keep : users) {
      SmallVector<AxisList> trial(choice.axes);
      for (int64_t g : users)
        if (g != keep)
          truncateAt(trial[g], dup);
      log.options.push_back({AxisList{dup}, static_cast<int32_t>(keep),
                             choice.source[keep].first, choice.priority[keep],
                             evaluator.cost(trial)});
    }
    // On a tie a pass-through factor keeps the axis: the result stays
    // whole rather than pending.
    auto isReduction = [&](const ConflictOption &o) {
      return rule.factorKinds[o.factor] == FactorKind::reduction;
    };
    for (auto [i, o] : llvm::enumerate(log.options)) {
      const ConflictOption &cur = log.options[log.chosen];
      if (o.priority < cur.priority ||
          (o.priority == cur.priority &&
           (o.cost < cur.cost ||
            (o.cost == cur.cost && isReduction(cur) && !isReduction(o)))))
        log.chosen = i;
    }
    decide(log, [&](const ConflictOption &o, const ForcedChoice &c) {
      return o.factor == c.factor;
    });
    ++numDecisions;
    int64_t keep = log.options[log.chosen].factor;
    for (int64_t g : users)
      if (g != keep)
        truncateAt(choice.axes[g], dup);
    if (options.explain)
      logConflict(std::move(log));
  }

  // Apply: extend open dimensions whose axes are a prefix of the choice.
  AxisList pending = evaluator.reductionAxes(choice.axes);
  int32_t pendingFactor = -1;
  for (int64_t f = 0; f < numFactors && pendingFactor < 0; ++f)
    if (rule.factorKinds[f] == FactorKind::reduction && !choice.axes[f].empty())
      pendingFactor = f;
  auto rootOf = [&](std::pair<int32_t, int32_t> source) {
    if (source.first < 0)
      return -1;
    return states[record.tensors[source.first]].dims[source.second].origin.root;
  };
  for (int32_t k = 0; k < numTensors; ++k) {
    int32_t t = record.tensors[k];
    ValueState &state = states[t];
    if (state.mesh && state.mesh != meshRef)
      continue;
    const TensorFactors &factors = rule.getTensor(k);
    AxisList used;
    for (const DimState &dim : state.dims)
      used.append(dim.axes.begin(), dim.axes.end());
    used.append(state.partial.begin(), state.partial.end());
    bool grew = false;
    for (auto [d, dim] : llvm::enumerate(state.dims)) {
      AxisList want =
          composeDim(factors[d], choice.axes, rule.factorSizes, *mesh);
      if (!dim.open || want.size() <= dim.axes.size() ||
          !isPrefix(dim.axes, want))
        continue;
      size_t before = dim.axes.size();
      for (StringAttr axis : ArrayRef<StringAttr>(want).drop_front(before)) {
        if (overlapsAny(used, axis))
          break;
        used.push_back(axis);
        dim.axes.push_back(axis);
      }
      if (dim.axes.size() == before)
        continue;
      // The factor that provided the first new axis.
      size_t seen = 0;
      for (int64_t f : factors[d]) {
        seen += choice.axes[f].size();
        if (seen > before) {
          dim.priority = choice.priority[f];
          dim.origin = {recordIndex, choice.source[f].first,
                        rootOf(choice.source[f])};
          break;
        }
      }
      grew = true;
    }
    bool isResult = k >= record.numOperands;
    if (isResult && !state.user && !state.isFuncResult && !state.carried &&
        !pending.empty() &&
        (state.partial.empty() || state.partialKind == rule.reductionKind)) {
      for (StringAttr axis : pending) {
        if (overlapsAny(used, axis))
          continue;
        used.push_back(axis);
        state.partial.push_back(axis);
        state.partialKind = rule.reductionKind;
        state.partialOrigin = {recordIndex, choice.source[pendingFactor].first,
                               rootOf(choice.source[pendingFactor])};
        grew = true;
      }
    }
    // A sum or mean reduce of a pending sum is the pending sum of its
    // reduction: the pending axes pass through and are reduced on the
    // smaller result (the partitioner's PartialPolicy does the same).
    if (isResult && passesPendingSum(record) && !state.user &&
        !state.isFuncResult && !state.carried &&
        (state.partial.empty() || state.partialKind == ReductionKind::sum)) {
      const ValueState &in = states[record.tensors[0]];
      if (in.mesh == meshRef && in.partialKind == ReductionKind::sum)
        for (StringAttr axis : in.partial) {
          if (overlapsAny(used, axis))
            continue;
          used.push_back(axis);
          state.partial.push_back(axis);
          state.partialKind = ReductionKind::sum;
          state.partialOrigin = in.partialOrigin;
          grew = true;
        }
    }
    if (!grew)
      continue;
    state.mesh = meshRef;
    changed.push_back(t);
  }
}

void FunctionPropagation::decide(
    ConflictRecord &log,
    function_ref<bool(const ConflictOption &, const ForcedChoice &)> matches) {
  ConflictKey key{log.record, log.axis.getAsOpaquePointer(), log.factor};
  auto asChoice = [&](const ConflictOption &o) {
    return ForcedChoice{log.axis ? o.factor : -1,
                        log.axis ? AxisList{} : o.axes};
  };
  // The whole-plan search forces an option of the same priority.
  auto it = forced.find(key);
  if (it != forced.end())
    for (auto [i, o] : llvm::enumerate(log.options))
      if (o.priority == log.options[log.chosen].priority &&
          matches(o, it->second)) {
        log.chosen = i;
        break;
      }
  // The cheapest other option of the same priority within the tolerance.
  const ConflictOption &won = log.options[log.chosen];
  const ConflictOption *other = nullptr;
  for (auto [i, o] : llvm::enumerate(log.options))
    if (static_cast<int32_t>(i) != log.chosen && o.priority == won.priority &&
        o.cost <= won.cost + options.tieTolerance * std::max(won.cost, 1.0) &&
        (!other || o.cost < other->cost))
      other = &o;
  if (other)
    ties[key] = {static_cast<size_t>(numDecisions), asChoice(*other)};
  else
    ties.erase(key);
}

double FunctionPropagation::recordCost(int32_t r, ReshardsDone *done,
                                       bool bytesOnly) const {
  const OpRecord &record = records[r];
  const OpShardingRule &rule = *record.rule;
  int64_t numFactors = rule.getNumFactors();
  int32_t numTensors = record.tensors.size();
  FlatSymbolRefAttr meshRef;
  for (int32_t t : record.tensors)
    if (!meshRef)
      meshRef = states[t].mesh;
  if (!meshRef)
    return 0;
  auto found = meshes.find(meshRef);
  if (found == meshes.end() || !found->second)
    return 0;
  const MeshAxes &mesh = *found->second;
  if (record.carried < 0 && partition::decidesBeyondAssignment(record.op) &&
      numTensors == static_cast<int32_t>(record.op->getNumOperands() +
                                         record.op->getNumResults()))
    if (std::optional<double> cost = opPlanCost(r, meshRef, done, bytesOnly))
      return *cost;
  // The factors' axes as the partitioner derives them
  // (FunctionPartitioner.cpp, chooseAssignment): the tensors of `lead`
  // decide their factors first (the results, or one operand then the
  // results), the other operands the factors nobody decided when they all
  // agree; an axis splits one factor; reduction factors keep their axes (a
  // pending sum) or not (their operands gathered). The partitioner keeps
  // the cheapest of these candidates, and so does the estimate.
  int32_t numOps = numOperands(record);
  SmallVector<bool> inCompound(numFactors, false);
  for (int32_t k = 0; k < numTensors; ++k)
    for (const DimFactors &dim : rule.getTensor(k))
      if (dim.size() > 1)
        for (int64_t f : dim)
          inCompound[f] = true;
  auto derive = [&](ArrayRef<int32_t> lead, bool keepReductions,
                    bool keepPermutations) {
    SmallVector<AxisList> factorAxes(numFactors);
    SmallVector<bool> set(numFactors, false), decided(numFactors, false),
        agreed(numFactors, true);
    // Factors in the order tensors set them: an axis two factors want goes
    // to the one set first (the partitioner offers axes tensor by tensor).
    SmallVector<int64_t> setOrder;
    SmallVector<AxisList> scratch(numFactors);
    auto visit = [&](int32_t k, bool leading) {
      const ValueState &state = states[record.tensors[k]];
      for (auto [d, factors] : llvm::enumerate(rule.getTensor(k))) {
        for (int64_t f : factors)
          scratch[f].clear();
        if (state.mesh == meshRef)
          projectDim(state.dims[d].axes, factors, rule.factorSizes, mesh,
                     scratch);
        for (int64_t f : factors) {
          if (decided[f])
            continue;
          if (!set[f]) {
            factorAxes[f] = scratch[f];
            set[f] = true;
            decided[f] = leading;
            setOrder.push_back(f);
          } else if (factorAxes[f] != scratch[f]) {
            agreed[f] = false;
          }
        }
      }
    };
    for (int32_t k : lead)
      visit(k, /*leading=*/true);
    for (int32_t k = 0; k < numOps; ++k)
      if (!llvm::is_contained(lead, k))
        visit(k, /*leading=*/false);
    // A factor in a compound dimension is split evenly only: padding would
    // interleave with data (the partitioner stops at the first axis that
    // does not divide it).
    for (int64_t f : setOrder) {
      if (!inCompound[f])
        continue;
      int64_t taken = 1;
      for (auto [i, axis] : llvm::enumerate(factorAxes[f])) {
        taken *= mesh.size(axis);
        if (rule.factorSizes[f] % taken != 0) {
          factorAxes[f].resize(i);
          break;
        }
      }
    }
    llvm::SmallDenseSet<StringAttr, 8> used;
    for (int64_t f : setOrder) {
      if (!agreed[f] || rule.factorKinds[f] == FactorKind::needReplication ||
          (!keepReductions && rule.factorKinds[f] == FactorKind::reduction) ||
          (!keepPermutations && rule.factorKinds[f] == FactorKind::permutation))
        factorAxes[f].clear();
      for (auto [i, axis] : llvm::enumerate(factorAxes[f]))
        if (!used.insert(axis).second) {
          factorAxes[f].resize(i);
          break;
        }
    }
    return factorAxes;
  };
  SmallVector<int32_t> results;
  for (int32_t k = numOps; k < numTensors; ++k)
    results.push_back(k);
  SmallVector<SmallVector<int32_t>> leads{results};
  // A returned or marked value is resharded to exactly what the result or
  // mark says; other ops try each operand first too.
  bool boundary = isa<func::ReturnOp, MarkShardingOp>(record.op);
  for (int32_t k = 0; k < numOps && !boundary; ++k) {
    SmallVector<int32_t> lead{k};
    llvm::append_range(lead, results);
    leads.push_back(lead);
  }
  bool hasReduction =
      llvm::is_contained(rule.factorKinds, FactorKind::reduction);
  // Only windowed ops and reverse split their permutation factors (a halo
  // or mirror exchange); a reverse may also gather them.
  auto reverse = dyn_cast<ReverseOp>(record.op);
  SmallVector<bool, 2> permutationChoices{(reverse && record.carried < 0) ||
                                          partition::isWindowedOp(record.op)};
  if (reverse)
    permutationChoices.push_back(false);
  // The collective_permutes of a reverse whose input is split along a
  // reversed dimension.
  auto mirrorCost = [&](ArrayRef<AxisList> factorAxes, bool bytesOnly) {
    if (!reverse || record.carried >= 0)
      return 0.0;
    Evaluator e(record, states, meshRef, mesh, options.costModel);
    std::optional<ShardLayout> layout =
        toLayout(meshRef, e.target(0, factorAxes), reverse.getType(),
                 ReductionKind::sum);
    if (!layout)
      return 0.0;
    partition::ReshardPlanner &planner = getPlanner(meshRef);
    partition::ReshardCostModel costs = planner.getCosts();
    if (bytesOnly)
      costs = {1.0, 1.0, 0.0};
    return partition::mirrorExchangeCost(reverse, *layout, planner.getMesh(),
                                         costs);
  };
  Evaluator weighted(record, states, meshRef, mesh, options.costModel);
  weighted.setPrice([&](const AxisSharding &from, const AxisSharding &to,
                        const ValueState &state) {
    return plannedCost(meshRef, from, to, state, /*bytesOnly=*/false);
  });
  SmallVector<AxisList> best;
  double bestCost = std::numeric_limits<double>::infinity();
  for (bool keepPermutations : permutationChoices) {
    for (bool keepReductions : {true, false}) {
      if (!keepReductions && !hasReduction)
        break;
      for (ArrayRef<int32_t> lead : leads) {
        SmallVector<AxisList> factorAxes =
            derive(lead, keepReductions, keepPermutations);
        double cost = weighted.cost(factorAxes, /*final=*/true) +
                      mirrorCost(factorAxes, /*bytesOnly=*/false);
        if (cost < bestCost) {
          bestCost = cost;
          best = std::move(factorAxes);
        }
      }
    }
  }
  Evaluator evaluator(record, states, meshRef, mesh, options.costModel);
  evaluator.setPrice([&](const AxisSharding &from, const AxisSharding &to,
                         const ValueState &state) {
    return plannedCost(meshRef, from, to, state, bytesOnly);
  });
  return evaluator.cost(best, /*final=*/true, done) +
         mirrorCost(best, bytesOnly);
}

partition::ReshardPlanner &
FunctionPropagation::getPlanner(FlatSymbolRefAttr meshRef) const {
  auto &planner = planners[meshRef];
  if (!planner) {
    partition::ReshardCostModel costs;
    costs.iciByteCost = options.costModel.iciByteCost;
    costs.dcnByteCost = options.costModel.dcnByteCost;
    planner = std::make_unique<partition::ReshardPlanner>(
        xla::MeshModel::fromAttr(meshes.find(meshRef)->second->getMesh()),
        costs);
  }
  return *planner;
}

std::optional<ShardLayout>
FunctionPropagation::toLayout(FlatSymbolRefAttr meshRef, const AxisSharding &s,
                              RankedTensorType type, ReductionKind kind) const {
  auto found = meshes.find(meshRef);
  if (found == meshes.end() || !found->second || !type ||
      !type.hasStaticShape() ||
      static_cast<int64_t>(s.dims.size()) != type.getRank())
    return std::nullopt;
  const MeshAxes &axes = *found->second;
  const xla::MeshModel &model = getPlanner(meshRef).getMesh();
  auto indexOf = [&](StringAttr a) -> std::optional<int> {
    int64_t i = axes.index(a);
    if (i < 0 || i >= static_cast<int64_t>(model.axisSizes.size()) ||
        model.axisSizes[i] != axes.size(a))
      return std::nullopt;
    return static_cast<int>(i);
  };
  ShardLayout layout;
  for (auto [d, dim] : llvm::enumerate(s.dims)) {
    auto &dimAxes = layout.dimAxes.emplace_back();
    int64_t shards = 1;
    for (StringAttr a : dim) {
      std::optional<int> i = indexOf(a);
      if (!i)
        return std::nullopt;
      dimAxes.push_back(*i);
      shards *= model.axisSizes[*i];
    }
    layout.paddedSize.push_back(xla::paddedDimSize(type.getDimSize(d), shards));
  }
  for (StringAttr a : s.partial) {
    std::optional<int> i = indexOf(a);
    if (!i)
      return std::nullopt;
    layout.partialAxes.push_back(*i);
  }
  llvm::sort(layout.partialAxes);
  layout.partialKind = kind;
  // An axis may split one dimension or be pending, not both: such a
  // candidate is no layout the planner knows.
  SmallVector<bool> seen(model.axisSizes.size(), false);
  for (ArrayRef<int> dimAxes : layout.dimAxes)
    for (int a : dimAxes)
      if (std::exchange(seen[a], true))
        return std::nullopt;
  for (int a : layout.partialAxes)
    if (std::exchange(seen[a], true))
      return std::nullopt;
  return layout;
}

std::optional<double> FunctionPropagation::opPlanCost(int32_t r,
                                                      FlatSymbolRefAttr meshRef,
                                                      ReshardsDone *done,
                                                      bool bytesOnly) const {
  const OpRecord &record = records[r];
  Operation *op = record.op;
  int32_t numOps = op->getNumOperands();
  // The layouts the partitioner will see: operands as propagation left
  // them (a value no sharding reached is replicated), results as it chose.
  SmallVector<ShardLayout> current, targets;
  for (auto [k, t] : llvm::enumerate(record.tensors)) {
    const ValueState &state = states[t];
    Value value = static_cast<int32_t>(k) < numOps ? op->getOperand(k)
                                                   : op->getResult(k - numOps);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return std::nullopt;
    AxisSharding sharding;
    if (state.mesh == meshRef)
      sharding = state.toAxisSharding();
    else
      sharding.dims.resize(type.getRank());
    std::optional<ShardLayout> layout =
        toLayout(meshRef, sharding, type, state.partialKind);
    if (!layout)
      return std::nullopt;
    (static_cast<int32_t>(k) < numOps ? current : targets)
        .push_back(std::move(*layout));
  }
  partition::ReshardPlanner &planner = getPlanner(meshRef);
  partition::OpPlan plan = partition::planOp(op, *record.rule, current, targets,
                                             planner, options.halo);
  partition::ReshardCostModel costs = planner.getCosts();
  if (bytesOnly)
    costs = {1.0, 1.0, 0.0};
  auto price = [&](Value value, ArrayRef<int64_t> shape, int64_t elementBytes,
                   const ShardLayout &from, const ShardLayout &to) {
    // The partitioner reshards an operand to a layout once and reuses it.
    for (auto [k, operand] : llvm::enumerate(op->getOperands()))
      if (value && operand == value && done &&
          !done->insert({record.tensors[k], "layout " + to.key()}).second)
        return 0.0;
    const partition::ReshardPlan &reshard =
        planner.plan(shape, elementBytes, from, to);
    if (!bytesOnly)
      return reshard.cost;
    double bytes = 0;
    for (const partition::ReshardStep &step : reshard.steps)
      bytes += step.bytesPerDevice;
    return bytes;
  };
  return partition::priceOpPlan(op, plan, current, targets, planner.getMesh(),
                                costs, price);
}

std::optional<double> FunctionPropagation::plannedCost(
    FlatSymbolRefAttr meshRef, const AxisSharding &from, const AxisSharding &to,
    const ValueState &state, bool bytesOnly) const {
  // The partitioner plans on whole mesh axes and global shapes; sub-axes
  // and values without a shape keep the closed-form estimate.
  RankedTensorType type;
  if (state.value)
    type = dyn_cast<RankedTensorType>(state.value.getType());
  else if (state.funcResult >= 0)
    type = dyn_cast<RankedTensorType>(
        mlir::func::FuncOp(func).getResultTypes()[state.funcResult]);
  std::optional<ShardLayout> source =
      toLayout(meshRef, from, type, state.partialKind);
  std::optional<ShardLayout> target =
      toLayout(meshRef, to, type, state.partialKind);
  if (!source || !target)
    return std::nullopt;
  if (*source == *target)
    return 0.0;
  const partition::ReshardPlan &plan = getPlanner(meshRef).plan(
      type.getShape(), (type.getElementTypeBitWidth() + 7) / 8, *source,
      *target);
  if (!bytesOnly)
    return plan.cost;
  double bytes = 0;
  for (const partition::ReshardStep &step : plan.steps)
    bytes += step.bytesPerDevice;
  return bytes;
}

double FunctionPropagation::planCost() const {
  double total = 0;
  ReshardsDone done;
  for (int32_t r = 0, e = records.size(); r < e; ++r)
    total += recordCost(r, &done);
  return total;
}

std::vector<NearTie> FunctionPropagation::nearTies() const {
  std::vector<std::pair<size_t, NearTie>> ordered;
  for (const auto &[key, tie] : ties)
    ordered.push_back({tie.first, NearTie{key, tie.second}});
  llvm::sort(ordered,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<NearTie> result;
  for (auto &[order, tie] : ordered)
    result.push_back(std::move(tie));
  return result;
}

} // namespace xspmd::prop::detail
