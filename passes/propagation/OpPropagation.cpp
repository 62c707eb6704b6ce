//===- OpPropagation.cpp - propagate through one op in factor space -------===//
//
// For one op: pick the mesh, project every tensor's dimension axes onto the
// rule's factors (candidates), choose the axes of each factor, make sure no
// axis serves two factors, and extend each tensor (and mark results
// partial) with what was chosen.
//
//===----------------------------------------------------------------------===//

#include "passes/propagation/OpEvaluator.h"

#include "passes/partition/OpPlan.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::prop::detail {

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

  // Candidates: each active dimension's axes projected onto its factors;
  // an op's factor takes no more shards than it has elements, as the
  // partitioner assigns them (a return or mark keeps the value's axes).
  bool shardElements =
      !isa<func::ReturnOp, MarkShardingOp>(record.op) && record.carried < 0;
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
      projectDim(dim.axes, factors[d], rule.factorSizes, *mesh, scratch,
                 shardElements);
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
  // Choices are priced as the final plan is: by the partitioner's planner.
  Evaluator evaluator(record, states, meshRef, *mesh);
  evaluator.setPrice([&](const AxisSharding &from, const AxisSharding &to,
                         const ValueState &state) {
    return plannedCost(meshRef, from, to, state, /*bytesOnly=*/false);
  });
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
  // Any at an op partition::planOp decides beyond a factor assignment (a
  // gather's padded batch, a halo exchange): the reshards priced here do
  // not see what planOp does there, the whole plan's cost does.
  const ConflictOption &won = log.options[log.chosen];
  bool plannedOp = partition::decidesBeyondAssignment(records[log.record].op);
  const ConflictOption *other = nullptr;
  for (auto [i, o] : llvm::enumerate(log.options))
    if (static_cast<int32_t>(i) != log.chosen && o.priority == won.priority &&
        (plannedOp ||
         o.cost <= won.cost + options.tieTolerance * std::max(won.cost, 1.0)) &&
        (!other || o.cost < other->cost))
      other = &o;
  if (other)
    ties[key] = {static_cast<size_t>(numDecisions), asChoice(*other)};
  else
    ties.erase(key);
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
